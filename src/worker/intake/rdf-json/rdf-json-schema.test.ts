import { describe, expect, it } from "vitest";
import { monitoringNamespace, rdfJsonBody, rdfJsonSubject } from "../../../../tools/testing/monitoring-data";
import { settingDefaults } from "../../http/setting-defaults";
import { modelNamespace } from "../../vocabulary/rdf-vocabulary";
import { parseMonitoringData } from "./rdf-json-reader";
import { monitoringDataSchema } from "./rdf-json-schema";

/*
 * The reader validates intake bodies; the schema documents them. Both must reach the same verdict
 * on every body, so that the document says what the service accepts.
 */

const limits = { maxData: 10, maxMetricNameLength: settingDefaults.MAX_METRIC_NAME_LENGTH };
const xsd = "http://www.w3.org/2001/XMLSchema#";
const datum = { metric: "cpu", timestamp: 1_409_223_851_698, value: "0.5", resourceId: "vm1" };
type Subject = Record<string, Record<string, unknown>[]>;

const subject = (change: Partial<typeof datum> = {}): Subject => rdfJsonSubject({ ...datum, ...change });
const predicate = (property: string) => `${monitoringNamespace}${property}`;
/** The array of one literal that `property` holds in a valid datum. */
const objectsOf = (property: string) => subject()[predicate(property)]!;

/** The subject with `property` replaced (undefined: removed). */
function withProperty(property: string, objects: unknown) {
  const { [predicate(property)]: _, ...others } = subject();
  return objects === undefined ? others : { ...others, [predicate(property)]: objects };
}

/** The subject with the literal of `property` changed. */
function withLiteral(property: string, literal: Record<string, unknown>) {
  return withProperty(property, [{ ...objectsOf(property)[0], ...literal }]);
}

/** The subject with every property in the model namespace. */
const inModelNamespace = Object.fromEntries(
  Object.entries(subject()).map(([key, objects]) => [key.replace(monitoringNamespace, modelNamespace), objects]),
);

const accepted: [string, unknown][] = [
  ["one datum", rdfJsonBody([{ id: "d1", ...datum }])],
  ["several data", { d1: subject(), d2: subject({ metric: "memory" }), "urn:d3": subject({ resourceId: "vm 2" }) }],
  ["the model namespace", { d1: inModelNamespace }],
  [
    "mixed namespaces",
    { d1: { ...withProperty("metric", undefined), [`${modelNamespace}metric`]: [{ type: "literal", value: "cpu" }] } },
  ],
  [
    "other predicates",
    { d1: { ...subject(), "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": [{ type: "uri", value: "x" }] } },
  ],
  ["a metric typed xsd:string", { d1: withLiteral("metric", { datatype: `${xsd}string` }) }],
  ...["INF", "-INF", "+INF", "NaN", ".5", "1.", "-3", "1.5e-3", "2E10"].map((value): [string, unknown] => [
    `the value ${value}`,
    { d1: subject({ value }) },
  ]),
  ["a signed timestamp", { d1: withLiteral("timestamp", { value: "-5" }) }],
  ["a metric name of the longest length", { d1: subject({ metric: "m".repeat(limits.maxMetricNameLength) }) }],
];

const refused: [string, unknown][] = [
  ["an empty object", {}],
  ["an array", [subject()]],
  ["a string", "d1"],
  ["null", null],
  ["an empty datum id", { "": subject() }],
  ["a datum id over 1,024 characters", { ["d".repeat(1_025)]: subject() }],
  ["a datum that is not an object", { d1: [subject()] }],
  ["a missing property", { d1: withProperty("timestamp", undefined) }],
  ["a property in both namespaces", { d1: { ...subject(), [`${modelNamespace}value`]: objectsOf("value") } }],
  ["two literals", { d1: withProperty("value", [...objectsOf("value"), ...objectsOf("value")]) }],
  ["no literal", { d1: withProperty("value", []) }],
  ["a literal not in an array", { d1: withProperty("value", objectsOf("value")[0]) }],
  ["a literal that is not an object", { d1: withProperty("value", ["0.5"]) }],
  ["another type than literal", { d1: withLiteral("resourceId", { type: "uri" }) }],
  ["an unknown key in a literal", { d1: withLiteral("value", { lang: "en" }) }],
  ["a wrong datatype", { d1: withLiteral("value", { datatype: `${xsd}float` }) }],
  ["a missing datatype", { d1: withLiteral("timestamp", { datatype: undefined }) }],
  ["a metric typed xsd:integer", { d1: withLiteral("metric", { datatype: `${xsd}integer` }) }],
  ["a lexical form that is not a string", { d1: withLiteral("value", { value: 0.5 }) }],
  ...["1,5", "inf", "", "0x10", "1e"].map((value): [string, unknown] => [
    `the value ${JSON.stringify(value)}`,
    { d1: subject({ value }) },
  ]),
  ["a timestamp that is not an integer", { d1: withLiteral("timestamp", { value: "1.5" }) }],
  ["a timestamp beyond the safe integers", { d1: withLiteral("timestamp", { value: "9007199254740993" }) }],
  ["an empty resource id", { d1: subject({ resourceId: "" }) }],
  ["a resource id with a control character", { d1: subject({ resourceId: "vm\u00071" }) }],
  ["a resource id over 1,024 characters", { d1: subject({ resourceId: "r".repeat(1_025) }) }],
  ["a metric name with a slash", { d1: subject({ metric: "a/b" }) }],
  ["an empty metric name", { d1: subject({ metric: "" }) }],
  ["a metric name over the limit", { d1: subject({ metric: "m".repeat(limits.maxMetricNameLength + 1) }) }],
  ["one good and one bad datum", { d1: subject(), d2: subject({ value: "x" }) }],
];

describe("the documented schema of monitoring data", () => {
  it.each(accepted)("accepts %s, as the reader does", (_, body) => {
    expect(parseMonitoringData(body, limits).ok).toBe(true);
    expect(monitoringDataSchema.safeParse(body).success).toBe(true);
  });

  it.each(refused)("refuses %s, as the reader does", (_, body) => {
    expect(parseMonitoringData(body, limits).ok).toBe(false);
    expect(monitoringDataSchema.safeParse(body).success).toBe(false);
  });
});
