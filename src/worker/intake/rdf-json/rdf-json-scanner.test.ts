import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../../../tools/testing/monitoring-data";
import { acceptedNamespaces, xsdDouble, xsdInteger, xsdString } from "../../vocabulary/rdf-vocabulary";
import { parseMonitoringData } from "./rdf-json-reader";
import { scanMonitoringData } from "./rdf-json-scanner";

const limits = { maxData: 50, maxMetricNameLength: 40 };
const [md, model] = acceptedNamespaces;

const datum = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  metric: "cpu",
  timestamp: 1409223851698,
  value: "0.5e0",
  resourceId: "vm1",
  ...overrides,
});

/** What the general path (JSON.parse and the reader) makes of the text: the data, or undefined for a refusal. */
function generalVerdict(text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = parseMonitoringData(body, limits);
  return result.ok ? result.data : undefined;
}

describe("scanMonitoringData", () => {
  it("reads compact bodies, as JSON.stringify writes them, to the same data as the general path", () => {
    const text = JSON.stringify(rdfJsonBody([datum("a"), datum("b", { value: "-INF", resourceId: "vm2" })]));
    expect(scanMonitoringData(text, limits)).toEqual(generalVerdict(text));
    expect(scanMonitoringData(text, limits)).toHaveLength(2);
  });

  it("reads indented bodies, fields in any order and the model namespace", () => {
    const text = `{
      "d1" : {
        "${model}value" : [ { "datatype" : "${xsdDouble}", "value" : "1.5", "type" : "literal" } ],
        "${md}resourceId" : [ { "value" : "vm1", "type" : "literal", "datatype" : "${xsdString}" } ],
        "${md}timestamp":[{"type":"literal","datatype":"${xsdInteger}","value":"+12"}],
        "${md}metric" : [ { "type" : "literal", "value" : "cpu" } ]
      }
    }\r\n`;
    expect(scanMonitoringData(text, limits)).toEqual([
      { id: "d1", metric: "cpu", timestamp: 12, value: 1.5, resourceId: "vm1" },
    ]);
  });

  it.each([
    ["an escape in a string", JSON.stringify(rdfJsonBody([datum('quote"d')]))],
    ["an id starting with a digit (JSON objects order such keys first)", JSON.stringify(rdfJsonBody([datum("1")]))],
    [
      "a repeated id",
      `{"a":${JSON.stringify(rdfJsonBody([datum("a")]).a)},"a":${JSON.stringify(rdfJsonBody([datum("a")]).a)}}`,
    ],
    ["a predicate it does not read", JSON.stringify({ a: { ...rdfJsonBody([datum("a")]).a, extra: [] } })],
    [
      "more data than the limit",
      JSON.stringify(rdfJsonBody(Array.from({ length: 51 }, (_, index) => datum(`d${index}`)))),
    ],
    ["no data", "{}"],
    ["text after the body", `${JSON.stringify(rdfJsonBody([datum("a")]))} x`],
    ["a value that is no xsd:double", JSON.stringify(rdfJsonBody([datum("a", { value: "1,5" })]))],
    ["a body that is not an object", "[]"],
  ])("gives up on %s", (_, text) => {
    expect(scanMonitoringData(text, limits)).toBeUndefined();
  });

  it("never decides differently from the general path", () => {
    const plain = fc.string({ unit: "grapheme", maxLength: 6 });
    // Strings drawn mostly plain, sometimes with what JSON must escape or a leading digit.
    const text = fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9.]{0,5}$/) },
      { weight: 1, arbitrary: plain },
      { weight: 1, arbitrary: fc.constantFrom("", "7", 'a"b', "a\\b", "a\nb", "ü", "__proto__") },
    );
    const lexicalValue = fc.oneof(
      fc.double().map(String),
      fc.constantFrom("1.", ".5", "+INF", "NaN", "1,5", "", "0x10"),
    );
    const lexicalTimestamp = fc.oneof(fc.integer().map(String), fc.constantFrom("+12", "9007199254740993", "1.0", ""));
    const literalObject = (value: fc.Arbitrary<string>, datatype: string) =>
      fc.record(
        {
          type: fc.constantFrom("literal", "uri"),
          value,
          datatype: fc.constantFrom(datatype, xsdString, "x"),
        },
        { requiredKeys: ["type"] },
      );
    const subject = fc.record(
      {
        [`${md}metric`]: fc.array(literalObject(text, xsdString), { minLength: 1, maxLength: 2 }),
        [`${md}timestamp`]: fc.array(literalObject(lexicalTimestamp, xsdInteger), { minLength: 1, maxLength: 1 }),
        [`${md}value`]: fc.array(literalObject(lexicalValue, xsdDouble), { minLength: 1, maxLength: 1 }),
        [`${model}value`]: fc.array(literalObject(lexicalValue, xsdDouble), { minLength: 1, maxLength: 1 }),
        [`${md}resourceId`]: fc.array(literalObject(text, xsdString), { minLength: 1, maxLength: 1 }),
        [`${model}resourceId`]: fc.array(literalObject(text, xsdString), { minLength: 1, maxLength: 1 }),
      },
      { requiredKeys: [`${md}metric`, `${md}timestamp`] },
    );
    const body = fc.dictionary(text, subject, { minKeys: 1, maxKeys: 5 });
    const spacing = fc.constantFrom(undefined, 1, "\t", " \r\n ");
    fc.assert(
      fc.property(body, spacing, (data, space) => {
        const json = JSON.stringify(data, null, space);
        const scanned = scanMonitoringData(json, limits);
        if (scanned !== undefined) expect(scanned).toEqual(generalVerdict(json));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads every valid body of plain strings that JSON.stringify writes", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9.]{0,8}$/);
    const data = fc.uniqueArray(
      fc.record({
        id: name,
        metric: name,
        timestamp: fc.integer(),
        value: fc.double({ noNaN: true, noDefaultInfinity: true }),
        resourceId: name,
      }),
      { selector: (entry) => entry.id, minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(data, (entries) => {
        const json = JSON.stringify(rdfJsonBody(entries.map((entry) => ({ ...entry, value: String(entry.value) }))));
        expect(scanMonitoringData(json, limits)).toEqual(generalVerdict(json));
        expect(scanMonitoringData(json, limits)).toHaveLength(entries.length);
      }),
      { numRuns: 500 },
    );
  });
  it("reads data written in the common order as the general path does, near misses included", () => {
    const space = fc.constantFrom("", " ", "\n  ", "\t");
    const namespace = fc.constantFrom(md, model);
    const lexical = fc.oneof(
      { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9.]{0,5}$/) },
      { weight: 1, arbitrary: fc.constantFrom("", "7", "1.5", "-3", "1e400", "ü", "a b", "x".repeat(1_030)) },
    );
    const literal = (value: fc.Arbitrary<string>, datatype: fc.Arbitrary<string | undefined>) =>
      fc.tuple(value, datatype, space).map(([text, type, gap]) => {
        const datatypeField = type === undefined ? "" : `,${gap}"datatype":${gap}${JSON.stringify(type)}`;
        return `[${gap}{"type":${gap}"literal",${gap}"value":"${text}"${datatypeField}${gap}}]`;
      });
    const subject = fc
      .tuple(
        fc.constantFrom("d1", "d2", "d3", "9", ""),
        namespace,
        literal(lexical, fc.constantFrom(undefined, xsdString, xsdInteger)),
        literal(fc.oneof(fc.integer().map(String), lexical), fc.constantFrom(xsdInteger, xsdString, undefined)),
        literal(fc.oneof(fc.double().map(String), lexical), fc.constantFrom(xsdDouble, xsdInteger)),
        literal(lexical, fc.constantFrom(xsdString, undefined)),
        space,
      )
      .map(([id, ns, metric, timestamp, value, resourceId, gap]) => {
        const predicates = [
          `"${ns}metric":${metric}`,
          `"${ns}timestamp":${gap}${timestamp}`,
          `"${md}value":${value}`,
          `"${ns}resourceId"${gap}:${resourceId}`,
        ];
        return `${gap}"${id}":${gap}{${gap}${predicates.join(`,${gap}`)}${gap}}`;
      });
    fc.assert(
      fc.property(fc.array(subject, { minLength: 1, maxLength: 4 }), (subjects) => {
        const json = `{${subjects.join(",")}}`;
        const scanned = scanMonitoringData(json, limits);
        const general = generalVerdict(json);
        if (scanned !== undefined) expect(scanned).toEqual(general);
        // A body the general path accepts here has plain strings only: the scan reads it too, unless
        // an id is index-like (JSON.parse puts it first, out of the text's order) or given twice
        // (JSON.parse keeps the last).
        const ids = subjects.map((subject) => /^\s*"([^"]*)"/.exec(subject)![1]);
        const idsAsInText = !ids.includes("9") && new Set(ids).size === ids.length;
        if (general !== undefined && idsAsInText) expect(scanned).toEqual(general);
      }),
      { numRuns: 3_000 },
    );
  });
});
