import { describe, expect, it } from "vitest";
import { toRow } from "../../intake/queue-message";
import { parseMonitoringData } from "../../intake/rdf-json/rdf-json-reader";
import { streamFormats } from "../../metrics/observer-kinds";
import type { Datum } from "../../vocabulary/datum";
import type { MetricRun } from "../../vocabulary/delivery";
import { streamSerializerFor } from ".";
import type { StreamSerializer } from "./serializer";

/** JSON documents of separate payloads as one: arrays concatenated, objects' members together. */
function mergedDocuments(documents: unknown[]): unknown {
  return Array.isArray(documents[0]) ? documents.flat() : Object.assign({}, ...documents);
}

function datum(fields: Partial<Datum> = {}): Datum {
  return {
    id: "d1",
    metric: "FrontendCPUUtilization",
    timestamp: 1409223851698,
    value: 0.11416644992590952,
    resourceId: "frontend1",
    ...fields,
  };
}

const special = [
  datum({ id: "nan", value: Number.NaN }),
  datum({ id: "inf", value: Number.POSITIVE_INFINITY }),
  datum({ id: "-inf", value: Number.NEGATIVE_INFINITY }),
];

/** The metric all of `data` are of: a delivery never mixes metrics. */
function metricOf(data: readonly Datum[]): string {
  const metrics = new Set(data.map((item) => item.metric));
  if (metrics.size !== 1) throw new Error(`test data of ${metrics.size} metrics`);
  return [...metrics][0]!;
}

/** What a serializer makes of data of one metric, handed over as one run of the rows queue messages carry. */
const payloadsOf = (serializer: StreamSerializer, data: readonly Datum[]) =>
  serializer.payloads([[metricOf(data), data.map(toRow)]]);
const recordsOf = (serializer: StreamSerializer, data: readonly Datum[]) =>
  serializer.records([[metricOf(data), data.map(toRow)]]);

describe("serializerFor", () => {
  it.each([
    ["RDF/JSON", "application/rdf+json", "one-per-datagram"],
    ["TOWER/JSON", "application/json", "one-per-datagram"],
    ["GRAPHITE", "text/plain; charset=utf-8", "lines"],
    ["INFLUXDB", "text/plain; charset=utf-8", "lines"],
  ] as const)("gives %s as %s, packed %s", (format, contentType, packing) => {
    const serializer = streamSerializerFor(format);
    expect([serializer.format, serializer.contentType, serializer.packing]).toEqual([format, contentType, packing]);
  });

  it.each(streamFormats)("makes no %s payload and no records of no data", (format) => {
    expect(streamSerializerFor(format).payloads([["cpu", []]])).toEqual([]);
    expect(streamSerializerFor(format).records([])).toEqual([]);
  });

  it.each(streamFormats)("serializes a runs array once in %s, however many observers take it", (format) => {
    const runs: MetricRun[] = [["cpu", [datum(), datum({ id: "d2", value: 2 })].map(toRow)]];
    const serializer = streamSerializerFor(format);
    expect(serializer.payloads(runs)).toBe(serializer.payloads(runs));
    expect(serializer.records(runs)).toBe(serializer.records(runs));
    expect(serializer.payloads([...runs])).not.toBe(serializer.payloads(runs));
  });

  it.each(streamFormats)("writes the runs of several metrics into one %s payload, in order", (format) => {
    const cpu = [datum({ id: "c1", metric: "cpu" }), datum({ id: "c2", metric: "cpu", value: 2 })];
    const memory = [datum({ id: "m1", metric: "memory", value: 3 })];
    const serializer = streamSerializerFor(format);
    const runs: MetricRun[] = [
      ["cpu", cpu.map(toRow)],
      ["memory", memory.map(toRow)],
    ];
    const [payload, ...more] = serializer.payloads(runs);
    expect(more).toEqual([]);
    const apart = [...payloadsOf(serializer, cpu), ...payloadsOf(serializer, memory)];
    if (serializer.packing === "lines") expect(payload).toBe(apart.join(""));
    else expect(JSON.parse(payload!)).toEqual(mergedDocuments(apart.map((text) => JSON.parse(text))));
    expect(serializer.records(runs)).toEqual([...recordsOf(serializer, cpu), ...recordsOf(serializer, memory)]);
  });

  it("puts an RDF/JSON subject id met again in another metric's run into a document of its own", () => {
    const runs: MetricRun[] = [
      ["cpu", [toRow(datum({ id: "same" }))]],
      ["memory", [toRow(datum({ id: "same", metric: "memory" }))]],
    ];
    expect(streamSerializerFor("RDF/JSON").payloads(runs)).toHaveLength(2);
  });
});

describe("RDF/JSON", () => {
  const rdf = streamSerializerFor("RDF/JSON");
  const md = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";
  const xsd = "http://www.w3.org/2001/XMLSchema#";
  /** The expected text of one subject, written out independently of the serializer. */
  const member = (id: string, metric: string, timestamp: string, value: string, resourceId: string) =>
    `"${id}":{"${md}metric":[{"type":"literal","value":"${metric}"}],` +
    `"${md}timestamp":[{"type":"literal","value":"${timestamp}","datatype":"${xsd}integer"}],` +
    `"${md}value":[{"type":"literal","value":"${value}","datatype":"${xsd}double"}],` +
    `"${md}resourceId":[{"type":"literal","value":"${resourceId}","datatype":"${xsd}string"}]}`;

  it("writes the original's example datum exactly", () => {
    expect(payloadsOf(rdf, [datum({ id: "a.unique.id.for.the.datum" })])).toEqual([
      '{"a.unique.id.for.the.datum":{' +
        '"http://www.modaclouds.eu/rdfs/1.0/monitoringdata#metric":[{"type":"literal","value":"FrontendCPUUtilization"}],' +
        '"http://www.modaclouds.eu/rdfs/1.0/monitoringdata#timestamp":[{"type":"literal","value":"1409223851698","datatype":"http://www.w3.org/2001/XMLSchema#integer"}],' +
        '"http://www.modaclouds.eu/rdfs/1.0/monitoringdata#value":[{"type":"literal","value":"0.11416644992590952","datatype":"http://www.w3.org/2001/XMLSchema#double"}],' +
        '"http://www.modaclouds.eu/rdfs/1.0/monitoringdata#resourceId":[{"type":"literal","value":"frontend1","datatype":"http://www.w3.org/2001/XMLSchema#string"}]}}',
    ]);
  });

  it("keeps the data's order, escapes JSON strings, and spells special doubles the xsd way", () => {
    const data = [
      datum({ id: "2", resourceId: "vm\\1", value: -3, timestamp: -1500 }),
      datum({ id: "1", value: 1e21, timestamp: 0 }),
      datum({ id: "__proto__", value: -0 }),
      ...special,
    ].map((item) => ({ ...item, metric: 'say "hi"' }));
    const metric = 'say \\"hi\\"';
    expect(payloadsOf(rdf, data)).toEqual([
      "{" +
        [
          member("2", metric, "-1500", "-3", "vm\\\\1"),
          member("1", metric, "0", "1e+21", "frontend1"),
          member("__proto__", metric, "1409223851698", "-0", "frontend1"),
          member("nan", metric, "1409223851698", "NaN", "frontend1"),
          member("inf", metric, "1409223851698", "INF", "frontend1"),
          member("-inf", metric, "1409223851698", "-INF", "frontend1"),
        ].join(",") +
        "}",
    ]);
  });

  it("splits data sharing an id over as many documents as needed, dropping none", () => {
    const data = [
      datum({ id: "a", value: 1 }),
      datum({ id: "b", value: 2 }),
      datum({ id: "a", value: 3 }),
      datum({ id: "a", value: 4 }),
      datum({ id: "b", value: 5 }),
    ];
    const subject = (id: string, value: string) =>
      member(id, "FrontendCPUUtilization", "1409223851698", value, "frontend1");
    expect(payloadsOf(rdf, data)).toEqual([
      `{${subject("a", "1")},${subject("b", "2")}}`,
      `{${subject("a", "3")},${subject("b", "5")}}`,
      `{${subject("a", "4")}}`,
    ]);
  });

  it("makes one single-datum document per record", () => {
    const data = [datum({ id: "a", value: 1 }), datum({ id: "a", value: 2 })];
    expect(recordsOf(rdf, data)).toEqual([
      `{${member("a", "FrontendCPUUtilization", "1409223851698", "1", "frontend1")}}`,
      `{${member("a", "FrontendCPUUtilization", "1409223851698", "2", "frontend1")}}`,
    ]);
  });

  it("writes values that the intake reads back as the same doubles", () => {
    const values = [
      0.1 + 0.2,
      5e-324,
      -1.7976931348623157e308,
      123456789012345680000,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    const data = values.map((value, index) => datum({ id: `v${index}`, value }));
    const [document] = payloadsOf(rdf, data);
    expect(parseMonitoringData(JSON.parse(document!), { maxData: 100, maxMetricNameLength: 256 })).toEqual({
      ok: true,
      data,
    });
  });
});

describe("TOWER/JSON", () => {
  const tower = streamSerializerFor("TOWER/JSON");

  it("writes an array of resourceId, metric, value and timestamp, with null for non-finite values", () => {
    const data = [datum(), datum({ resourceId: 'r"2', value: -2.5e-7, timestamp: -1 }), ...special].map((item) => ({
      ...item,
      metric: 'm\u00e9 "1"',
    }));
    expect(payloadsOf(tower, data)).toEqual([
      "[" +
        '{"resourceId":"frontend1","metric":"m\u00e9 \\"1\\"","value":0.11416644992590952,"timestamp":1409223851698},' +
        '{"resourceId":"r\\"2","metric":"m\u00e9 \\"1\\"","value":-2.5e-7,"timestamp":-1},' +
        '{"resourceId":"frontend1","metric":"m\u00e9 \\"1\\"","value":null,"timestamp":1409223851698},' +
        '{"resourceId":"frontend1","metric":"m\u00e9 \\"1\\"","value":null,"timestamp":1409223851698},' +
        '{"resourceId":"frontend1","metric":"m\u00e9 \\"1\\"","value":null,"timestamp":1409223851698}' +
        "]",
    ]);
  });

  it("keeps the sign of zero and writes big values in exponent form", () => {
    const [payload] = payloadsOf(tower, [datum({ value: -0 }), datum({ value: 1e21 })]);
    expect(payload).toBe(
      '[{"resourceId":"frontend1","metric":"FrontendCPUUtilization","value":-0,"timestamp":1409223851698},' +
        '{"resourceId":"frontend1","metric":"FrontendCPUUtilization","value":1e+21,"timestamp":1409223851698}]',
    );
    expect(Object.is(JSON.parse(payload!)[0].value, -0)).toBe(true);
  });

  it("makes one-element arrays as records", () => {
    expect(recordsOf(tower, [datum({ value: 1 }), datum({ value: 2, resourceId: "b" })])).toEqual([
      '[{"resourceId":"frontend1","metric":"FrontendCPUUtilization","value":1,"timestamp":1409223851698}]',
      '[{"resourceId":"b","metric":"FrontendCPUUtilization","value":2,"timestamp":1409223851698}]',
    ]);
  });
});

describe("GRAPHITE", () => {
  const graphite = streamSerializerFor("GRAPHITE");

  it("writes one line per datum with the value and whole seconds", () => {
    const data = [
      datum(),
      datum({ resourceId: "vm-1", value: -3, timestamp: 999 }),
      datum({ value: 1e21, timestamp: -1500 }),
      datum({ value: 5e-7, timestamp: 1000 }),
      datum({ value: -0, timestamp: 0 }),
    ].map((item) => ({ ...item, metric: "cpu_util.avg" }));
    expect(payloadsOf(graphite, data)).toEqual([
      "frontend1.cpu_util.avg 0.11416644992590952 1409223851\n" +
        "vm-1.cpu_util.avg -3 0\n" +
        "frontend1.cpu_util.avg 1e+21 -2\n" +
        "frontend1.cpu_util.avg 5e-7 1\n" +
        "frontend1.cpu_util.avg -0 0\n",
    ]);
  });

  it("replaces every character outside [A-Za-z0-9_.-] in the path by one underscore", () => {
    const data = [datum({ resourceId: "vm 1/\u00e4\\x", metric: "CPU:util\u{1F600}=%" })];
    expect(payloadsOf(graphite, data)).toEqual(["vm_1___x.CPU_util___ 0.11416644992590952 1409223851\n"]);
  });

  it("spells non-finite values as Python's float reads them", () => {
    expect(recordsOf(graphite, special)).toEqual([
      "frontend1.FrontendCPUUtilization nan 1409223851\n",
      "frontend1.FrontendCPUUtilization inf 1409223851\n",
      "frontend1.FrontendCPUUtilization -inf 1409223851\n",
    ]);
  });

  it("floors the largest safe millisecond time exactly", () => {
    expect(recordsOf(graphite, [datum({ value: 1, timestamp: Number.MAX_SAFE_INTEGER })])).toEqual([
      "frontend1.FrontendCPUUtilization 1 9007199254740\n",
    ]);
  });
});

describe("INFLUXDB", () => {
  const influx = streamSerializerFor("INFLUXDB");

  it("writes line protocol with the time in exact nanoseconds", () => {
    const data = [
      datum({ metric: "cpu" }),
      datum({ metric: "cpu", resourceId: "vm1", value: -3, timestamp: 0 }),
      datum({ metric: "cpu", resourceId: "vm1", value: 1e21, timestamp: -1 }),
      datum({ metric: "cpu", resourceId: "vm1", value: -0, timestamp: 9007199254740 }),
    ];
    expect(payloadsOf(influx, data)).toEqual([
      "cpu,resourceId=frontend1 value=0.11416644992590952 1409223851698000000\n" +
        "cpu,resourceId=vm1 value=-3 0\n" +
        "cpu,resourceId=vm1 value=1e+21 -1000000\n" +
        "cpu,resourceId=vm1 value=-0 9007199254740000000\n",
    ]);
  });

  it("escapes commas and spaces in the measurement, and commas, equals signs and spaces in the tag", () => {
    expect(
      recordsOf(influx, [datum({ metric: "cpu load,avg=x", resourceId: "vm 1,a=b", value: 1, timestamp: 1 })]),
    ).toEqual(["cpu\\ load\\,avg=x,resourceId=vm\\ 1\\,a\\=b value=1 1000000\n"]);
    // Backslashes stay as they are: a reader keeps one that precedes no escaped character.
    expect(recordsOf(influx, [datum({ metric: "C:\\temp", resourceId: "a\\,b\\c", value: 2, timestamp: 2 })])).toEqual([
      "C:\\temp,resourceId=a\\\\,b\\c value=2 2000000\n",
    ]);
  });

  it("omits the resourceId tag when it is empty, as the protocol has no empty tag values", () => {
    expect(recordsOf(influx, [datum({ metric: "cpu", resourceId: "", value: 1, timestamp: 5 })])).toEqual([
      "cpu value=1 5000000\n",
    ]);
  });

  it("leaves out data the protocol cannot carry, and keeps the others", () => {
    const kept = datum({ id: "kept", metric: "cpu", resourceId: "vm1", value: 1, timestamp: 9223372036854 });
    const earliest = datum({ id: "earliest", metric: "cpu", resourceId: "vm1", value: 2, timestamp: -9223372036854 });
    const leftOut = [
      ...special,
      datum({ resourceId: "vm\n1" }),
      datum({ resourceId: "vm\t1" }),
      datum({ resourceId: "vm1\\" }),
      datum({ timestamp: 9223372036855 }),
      datum({ timestamp: -9223372036855 }),
    ].map((item) => ({ ...item, metric: "cpu" }));
    expect(payloadsOf(influx, [...leftOut, kept, earliest])).toEqual([
      "cpu,resourceId=vm1 value=1 9223372036854000000\ncpu,resourceId=vm1 value=2 -9223372036854000000\n",
    ]);
    expect(payloadsOf(influx, leftOut)).toEqual([]);
    expect(recordsOf(influx, leftOut)).toEqual([]);
    for (const metric of ["cpu\u007f", "cpu\\", "#cpu", ""]) {
      expect(payloadsOf(influx, [{ ...kept, metric }])).toEqual([]);
    }
  });
});
