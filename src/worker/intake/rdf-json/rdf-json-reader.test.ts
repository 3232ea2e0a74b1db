import { describe, expect, it } from "vitest";
import { jsonPointer } from "../../../shared/problems";
import { parseMonitoringData } from "./rdf-json-reader";

const md = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";
const model = "http://www.modaclouds.eu/model#";
const xsd = "http://www.w3.org/2001/XMLSchema#";
const limits = { maxData: 10_000, maxMetricNameLength: 256 };

type Literal = Record<string, unknown>;

/** A valid subject in the monitoringdata# namespace; `overrides` replaces or (undefined) removes predicates. */
function subject(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    [`${md}metric`]: [{ type: "literal", value: "FrontendCPUUtilization" }],
    [`${md}timestamp`]: [{ type: "literal", value: "1409223851698", datatype: `${xsd}integer` }],
    [`${md}value`]: [{ type: "literal", value: "0.11416644992590952e0", datatype: `${xsd}double` }],
    [`${md}resourceId`]: [{ type: "literal", value: "frontend1", datatype: `${xsd}string` }],
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

function literal(property: string, fields: Literal): Record<string, unknown> {
  return { [`${md}${property}`]: [fields] };
}

/** The pointer to a literal's field in subject `d1`, e.g. `/d1/http:~1~1…#value/0/value`. */
function at(property: string, ...rest: PropertyKey[]): string {
  return jsonPointer(["d1", `${md}${property}`, ...rest]);
}

function problemsOf(body: unknown, parseLimits = limits) {
  const result = parseMonitoringData(body, parseLimits);
  if (result.ok || !("problems" in result)) throw new Error(`expected problems, got ${JSON.stringify(result)}`);
  return result.problems;
}

function parsedValueOf(property: string, fields: Literal): unknown {
  const result = parseMonitoringData({ d1: subject(literal(property, fields)) }, limits);
  if (!result.ok) throw new Error(`expected data, got ${JSON.stringify(result)}`);
  return result.data[0]![property as "value"];
}

describe("parseMonitoringData: accepted bodies", () => {
  it("reads the original's example datum", () => {
    expect(parseMonitoringData({ "a.unique.id.for.the.datum": subject() }, limits)).toEqual({
      ok: true,
      data: [
        {
          id: "a.unique.id.for.the.datum",
          metric: "FrontendCPUUtilization",
          timestamp: 1409223851698,
          value: 0.11416644992590952,
          resourceId: "frontend1",
        },
      ],
    });
  });

  it("reads several data in body order, in the model# namespace too, ignoring other predicates", () => {
    const laterForm = {
      "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": [{ type: "uri", value: `${model}MonitoringDatum` }],
      [`${model}metric`]: [{ type: "literal", value: "ResponseTime", datatype: `${xsd}string` }],
      [`${model}timestamp`]: [{ type: "literal", value: "1000", datatype: `${xsd}integer` }],
      [`${model}value`]: [{ type: "literal", value: "-3", datatype: `${xsd}double` }],
      [`${model}resourceId`]: [{ type: "literal", value: "mic1", datatype: `${xsd}string` }],
    };
    const mixed = subject({ [`${md}metric`]: undefined, [`${model}metric`]: [{ type: "literal", value: "Mixed" }] });
    expect(parseMonitoringData({ z: laterForm, a: mixed }, limits)).toEqual({
      ok: true,
      data: [
        { id: "z", metric: "ResponseTime", timestamp: 1000, value: -3, resourceId: "mic1" },
        { id: "a", metric: "Mixed", timestamp: 1409223851698, value: 0.11416644992590952, resourceId: "frontend1" },
      ],
    });
  });

  it("takes a datum id of __proto__ as an id like any other", () => {
    const body = JSON.parse(`{"__proto__": ${JSON.stringify(subject())}}`);
    const result = parseMonitoringData(body, limits);
    expect(result.ok && result.data.map((datum) => datum.id)).toEqual(["__proto__"]);
  });

  it.each([
    ["1.5", 1.5],
    ["1.5e0", 1.5],
    ["-3", -3],
    [".5", 0.5],
    ["1.", 1],
    ["+0.5E-2", 0.005],
    ["1E10", 1e10],
    ["-0", -0],
    ["1e400", Number.POSITIVE_INFINITY],
    ["INF", Number.POSITIVE_INFINITY],
    ["+INF", Number.POSITIVE_INFINITY],
    ["-INF", Number.NEGATIVE_INFINITY],
    ["NaN", Number.NaN],
  ])("reads the xsd:double %j as %d", (lexical, expected) => {
    expect(parsedValueOf("value", { type: "literal", value: lexical, datatype: `${xsd}double` })).toBe(expected);
  });

  it.each([
    ["0", 0],
    ["+12", 12],
    ["-5", -5],
    ["007", 7],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("reads the xsd:integer timestamp %j as %d", (lexical, expected) => {
    expect(parsedValueOf("timestamp", { type: "literal", value: lexical, datatype: `${xsd}integer` })).toBe(expected);
  });

  it("counts a metric name's length in characters, not UTF-16 units", () => {
    const emoji = "\u{1F600}";
    const fields = { type: "literal", value: emoji.repeat(256) };
    expect(parsedValueOf("metric", fields)).toBe(emoji.repeat(256));
    expect(problemsOf({ d1: subject(literal("metric", { ...fields, value: emoji.repeat(257) })) })).toEqual([
      { path: at("metric", 0, "value"), message: "Metric name must be at most 256 characters long." },
    ]);
  });
});

describe("parseMonitoringData: the body", () => {
  const expectedBody =
    `RDF/JSON: an object keyed by datum id, e.g. {"d1":{"${md}metric":[{"type":"literal","value":"cpu"}],…}}, ` +
    "each datum giving its metric, timestamp, value and resourceId by their full IRIs";

  it.each([[[]], [null], ["text"], [42], [[subject()]]])("rejects %j as a whole", (body) => {
    expect(problemsOf(body)).toEqual([{ path: "", message: `Must be ${expectedBody}.` }]);
  });

  it("rejects an object without data", () => {
    expect(problemsOf({})).toEqual([{ path: "", message: `The body holds no data; it must be ${expectedBody}.` }]);
  });

  it("points TOWER/JSON, the form observers receive, at the shape expected", () => {
    const towerDatum = { resourceId: "vm1", metric: "cpu", value: 0.5, timestamp: 1409223851698 };
    expect(problemsOf([towerDatum, towerDatum])).toEqual([
      { path: "", message: `The body is TOWER/JSON, the form observers receive; this route takes ${expectedBody}.` },
    ]);
    expect(problemsOf(towerDatum)).toEqual([
      {
        path: "",
        message: `The body is a datum in TOWER/JSON, the form observers receive; this route takes ${expectedBody}.`,
      },
    ]);
  });

  it("tells too many data apart from problems, before validating any", () => {
    const threeBad = { a: 1, b: 2, c: 3 };
    expect(parseMonitoringData(threeBad, { ...limits, maxData: 2 })).toEqual({ ok: false, tooMany: 3 });
    const two = { a: subject(), b: subject() };
    expect(parseMonitoringData(two, { ...limits, maxData: 2 })).toMatchObject({ ok: true });
  });

  it("rejects a subject that is not an object, and an empty datum id", () => {
    expect(problemsOf({ d1: [subject()], "": subject(), d3: "x" })).toEqual([
      { path: "/d1", message: "Must be a datum: an object of its properties, each named by its full IRI." },
      { path: "/", message: "A datum id must not be empty." },
      { path: "/d3", message: "Must be a datum: an object of its properties, each named by its full IRI." },
    ]);
  });

  it("reports every problem of every datum, and returns no data", () => {
    const body = {
      good: subject(),
      d1: subject({
        [`${md}metric`]: undefined,
        [`${md}value`]: [{ type: "literal", value: "0x10", datatype: `${xsd}double` }],
      }),
      d2: subject({ [`${md}resourceId`]: [{ type: "literal", value: "", datatype: `${xsd}string` }] }),
    };
    expect(problemsOf(body)).toEqual([
      { path: "/d1", message: `Missing property metric; give it as "${md}metric":[{"type":"literal","value":"cpu"}].` },
      {
        path: "/d1/http:~1~1www.modaclouds.eu~1rdfs~11.0~1monitoringdata#value/0/value",
        message: "The value is not an xsd:double lexical form.",
      },
      { path: jsonPointer(["d2", `${md}resourceId`, 0, "value"]), message: "The resourceId must not be empty." },
    ]);
  });

  it("bounds datum ids and resource ids, and refuses control characters in a resource id", () => {
    const long = "x".repeat(1_025);
    const resource = (value: string) =>
      subject(literal("resourceId", { type: "literal", value, datatype: `${xsd}string` }));
    expect(problemsOf({ [long]: subject(), d1: resource(long), d2: resource("vm\u0007") })).toEqual([
      { path: `/${long}`, message: "A datum id must be at most 1024 characters." },
      { path: at("resourceId", 0, "value"), message: "The resourceId must be at most 1024 characters." },
      {
        path: jsonPointer(["d2", `${md}resourceId`, 0, "value"]),
        message: "The resourceId must not contain control characters.",
      },
    ]);
    const longest = "y".repeat(1_024);
    expect(parseMonitoringData({ [longest]: resource(longest) }, limits)).toMatchObject({ ok: true });
  });

  it("reports a recurring bad metric name at every datum that names it", () => {
    const bad = subject(literal("metric", { type: "literal", value: "a/b" }));
    expect(problemsOf({ d1: bad, d2: bad })).toEqual([
      { path: at("metric", 0, "value"), message: 'Metric name must not contain "/".' },
      { path: jsonPointer(["d2", `${md}metric`, 0, "value"]), message: 'Metric name must not contain "/".' },
    ]);
  });
});

describe("parseMonitoringData: properties", () => {
  it.each([
    ["metric", '[{"type":"literal","value":"cpu"}]'],
    ["timestamp", `[{"type":"literal","value":"1409223851698","datatype":"${xsd}integer"}]`],
    ["value", `[{"type":"literal","value":"0.5","datatype":"${xsd}double"}]`],
    ["resourceId", `[{"type":"literal","value":"vm1","datatype":"${xsd}string"}]`],
  ])("requires %s, showing how to give it", (property, literalList) => {
    expect(problemsOf({ d1: subject({ [`${md}${property}`]: undefined }) })).toEqual([
      { path: "/d1", message: `Missing property ${property}; give it as "${md}${property}":${literalList}.` },
    ]);
  });

  it("says that property names are full IRIs when a datum names its properties otherwise", () => {
    const bare = subject({ [`${md}metric`]: undefined, metric: [{ type: "literal", value: "cpu" }] });
    const elsewhere = subject({ [`${md}value`]: undefined, "http://example.org/ns#Value": [] });
    expect(problemsOf({ d1: bare, d2: elsewhere })).toEqual([
      {
        path: "/d1",
        message:
          'Missing property metric: property names are full IRIs, and "metric" is not one this service reads; ' +
          `write "${md}metric":[{"type":"literal","value":"cpu"}].`,
      },
      {
        path: "/d2",
        message:
          'Missing property value: property names are full IRIs, and "http://example.org/ns#Value" is not one ' +
          `this service reads; write "${md}value":[{"type":"literal","value":"0.5","datatype":"${xsd}double"}].`,
      },
    ]);
  });

  it("rejects a property given in both namespaces", () => {
    const body = { d1: subject({ [`${model}value`]: [{ type: "literal", value: "2", datatype: `${xsd}double` }] }) };
    expect(problemsOf(body)).toEqual([
      {
        path: jsonPointer(["d1", `${model}value`]),
        message: `The value is given in both namespaces ${md} and ${model}; give it once.`,
      },
    ]);
  });

  it.each([
    [{ type: "literal", value: "1" }, "not an array", "Must be an array holding one literal object."],
    [[], "empty", "Must hold exactly one literal, not 0."],
  ])("rejects an object list %j (%s)", (objects, _case, message) => {
    expect(problemsOf({ d1: subject({ [`${md}value`]: objects }) })).toEqual([{ path: at("value"), message }]);
  });

  it("rejects two literals for one property", () => {
    const literalOne = { type: "literal", value: "1", datatype: `${xsd}double` };
    expect(problemsOf({ d1: subject({ [`${md}value`]: [literalOne, literalOne] }) })).toEqual([
      { path: at("value"), message: "Must hold exactly one literal, not 2." },
    ]);
  });

  it("rejects a list element that is not a literal object", () => {
    expect(problemsOf({ d1: subject({ [`${md}value`]: ["1"] }) })).toEqual([
      { path: at("value", 0), message: 'Must be a literal object: {"type":"literal","value":…}.' },
    ]);
  });

  it("rejects a literal of another type, with unknown keys, or with a non-string value", () => {
    const fields = { type: "uri", value: 1.5, datatype: `${xsd}double`, lang: "en", extra: true, valeu: "1" };
    expect(problemsOf({ d1: subject(literal("value", fields)) })).toEqual([
      { path: at("value", 0, "lang"), message: "Unknown field." },
      { path: at("value", 0, "extra"), message: "Unknown field." },
      { path: at("value", 0, "valeu"), message: 'Unknown field; did you mean "value"?' },
      { path: at("value", 0, "type"), message: 'Must be "literal".' },
      { path: at("value", 0, "value"), message: "The lexical form of value must be a string." },
    ]);
  });

  it.each([
    ["timestamp", undefined, `Required: the datatype ${xsd}integer.`],
    ["timestamp", `${xsd}long`, `Must be ${xsd}integer.`],
    ["value", `${xsd}float`, `Must be ${xsd}double.`],
    ["resourceId", undefined, `Required: the datatype ${xsd}string.`],
    ["metric", `${xsd}integer`, `Must be ${xsd}string, or absent (a plain literal).`],
  ])("rejects %s with the datatype %s", (property, datatype, message) => {
    const fields: Literal = { type: "literal", value: "1" };
    if (datatype !== undefined) fields.datatype = datatype;
    expect(problemsOf({ d1: subject(literal(property, fields)) })).toEqual([
      { path: at(property, 0, "datatype"), message },
    ]);
  });

  it.each(["0x10", "1,5", "", " 1", "1 ", "Infinity", "-Infinity", "inf", "nan", "1e", "e1", ".", "1.5.2", "\u22121"])(
    "rejects the value %j",
    (lexical) => {
      const fields = { type: "literal", value: lexical, datatype: `${xsd}double` };
      expect(problemsOf({ d1: subject(literal("value", fields)) })).toEqual([
        { path: at("value", 0, "value"), message: "The value is not an xsd:double lexical form." },
      ]);
    },
  );

  it.each(["1.5", "1e3", "", "abc", " 1", "0x10", "+"])("rejects the timestamp %j", (lexical) => {
    const fields = { type: "literal", value: lexical, datatype: `${xsd}integer` };
    expect(problemsOf({ d1: subject(literal("timestamp", fields)) })).toEqual([
      { path: at("timestamp", 0, "value"), message: "The timestamp is not an xsd:integer lexical form." },
    ]);
  });

  it.each(["9007199254740992", "-9007199254740992", "1".repeat(400)])(
    "rejects the timestamp %j beyond the safe integers",
    (lexical) => {
      const fields = { type: "literal", value: lexical, datatype: `${xsd}integer` };
      expect(problemsOf({ d1: subject(literal("timestamp", fields)) })).toEqual([
        {
          path: at("timestamp", 0, "value"),
          message:
            "The timestamp is beyond the safe integers (at most 2^53 - 1 milliseconds either side of the epoch).",
        },
      ]);
    },
  );

  it.each([
    ["", "Metric name must not be empty."],
    ["cpu/usage", 'Metric name must not contain "/".'],
    ["cpu\nusage", "Metric name must not contain control characters."],
    ["cpu\u007f", "Metric name must not contain control characters."],
    ["cpu\u0085", "Metric name must not contain control characters."],
    ["cpu\ud800", "Metric name must not contain unpaired surrogates."],
    ["x".repeat(257), "Metric name must be at most 256 characters long."],
  ])("rejects the metric name %j", (name, message) => {
    expect(problemsOf({ d1: subject(literal("metric", { type: "literal", value: name })) })).toEqual([
      { path: at("metric", 0, "value"), message },
    ]);
  });

  it("takes the metric name limit as a parameter", () => {
    const body = { d1: subject(literal("metric", { type: "literal", value: "elevenchars" })) };
    expect(problemsOf(body, { ...limits, maxMetricNameLength: 10 })).toEqual([
      { path: at("metric", 0, "value"), message: "Metric name must be at most 10 characters long." },
    ]);
    expect(parseMonitoringData(body, { ...limits, maxMetricNameLength: 11 })).toMatchObject({ ok: true });
  });
});
