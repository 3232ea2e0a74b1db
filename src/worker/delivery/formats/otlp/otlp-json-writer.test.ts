import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMetricsJson } from "../../../intake/otlp/metrics-json";
import { encodeRequest } from "../../../intake/otlp/testing/otlp-protobuf-encoder";
import { seriesLabels } from "../../../vocabulary/datum";
import type { MetricRun } from "../../../vocabulary/delivery";
import { otlpJsonRequest } from "./otlp-json-writer";
import { otlpMetricsRequest } from "./otlp-metrics-request";
import { otlpProtobufRequest } from "./otlp-protobuf-writer";
import {
  arrivalMs,
  expectedPoints,
  jsonFormOf,
  labelChangesArbitrary,
  lastMillisecond,
  pointsRead,
  runsArbitrary,
} from "./testing/otlp-output-cases";

const read = (text: string) => readMetricsJson(JSON.parse(text), arrivalMs, 100_000);

const runs: MetricRun[] = [
  [
    "cpu",
    [
      [
        "a",
        1_700_000_000_001,
        0.5,
        "i-1",
        seriesLabels([["service.instance.id", "i-1"]], undefined, "service.instance.id"),
      ],
      [
        "b",
        lastMillisecond,
        "NaN",
        "vm1",
        seriesLabels([
          ["host.name", "vm1"],
          ["q", '"\\\n'],
        ]),
      ],
      ["c", 0, "INF", "frontend1"],
      ["d", 1, "-INF", "frontend1"],
      ["e", 2, -0, "-", seriesLabels([])],
    ],
  ],
];

describe("otlpJsonRequest", () => {
  it("writes the OTLP JSON encoding: int64 times as decimal strings, non-finite doubles by name, -0 with its sign", () => {
    const text = otlpJsonRequest(otlpMetricsRequest(runs));
    expect(text).toBe(
      '{"resourceMetrics":[' +
        '{"resource":{"attributes":[{"key":"service.instance.id","value":{"stringValue":"i-1"}}]},' +
        '"scopeMetrics":[{"scope":{"name":"tower-edge"},"metrics":[{"name":"cpu","gauge":{"dataPoints":[' +
        '{"timeUnixNano":"1700000000001000000","asDouble":0.5}]}}]}]},' +
        '{"scopeMetrics":[{"scope":{"name":"tower-edge"},"metrics":[{"name":"cpu","gauge":{"dataPoints":[' +
        '{"timeUnixNano":"18446744073709000000","asDouble":"NaN","attributes":[' +
        '{"key":"host.name","value":{"stringValue":"vm1"}},{"key":"q","value":{"stringValue":"\\"\\\\\\n"}}]},' +
        '{"timeUnixNano":"1","asDouble":"Infinity","attributes":[{"key":"resource","value":{"stringValue":"frontend1"}}]},' +
        '{"timeUnixNano":"1000000","asDouble":"-Infinity","attributes":[{"key":"resource","value":{"stringValue":"frontend1"}}]},' +
        '{"timeUnixNano":"2000000","asDouble":-0}]}}]}]}]}',
    );
  });

  it("is read back by the intake's reader with the same names, attributes, resource, values and times", () => {
    const result = read(otlpJsonRequest(otlpMetricsRequest(runs)));
    expect(result.rejectedDataPoints).toBe(0);
    expect(pointsRead(result)).toEqual(expectedPoints(runs, undefined));
  });

  it("writes an empty request", () => {
    expect(otlpJsonRequest({ resourceMetrics: [] })).toBe('{"resourceMetrics":[]}');
  });

  it("writes any payload as transcribed, fields in the protobuf encoding's order, and the reader reads back every datum", () => {
    fc.assert(
      fc.property(runsArbitrary, labelChangesArbitrary, (payload, changes) => {
        const request = otlpMetricsRequest(payload, changes);
        const text = otlpJsonRequest(request);
        expect(JSON.parse(text)).toEqual(jsonFormOf(request));
        // The test encoder writes fields in the order the object lists them.
        expect(encodeRequest(JSON.parse(text))).toEqual(otlpProtobufRequest(request));
        expect(pointsRead(read(text))).toEqual(expectedPoints(payload, changes));
      }),
    );
  });
});
