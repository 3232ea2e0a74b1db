import { attributeLabels } from "./attribute-text";
import { MetricsMapping, type OtlpMetricsResult } from "./metrics-mapping";
import {
  type AnyValue,
  type Attribute,
  type DataPoint,
  type ExponentialHistogramPoint,
  type HistogramPoint,
  maxValueNesting,
  type NumberPoint,
  type PointContext,
  type SummaryPoint,
} from "./metrics-model";
import { OtlpBodyError } from "./otlp-body-error";

/*
 * The OTLP JSON encoding: the protobuf JSON mapping of the same messages, with lowerCamelCase
 * field names (the proto names are accepted too, as protobuf's own parsers do), 64-bit integers
 * as decimal strings or numbers, doubles as numbers or "NaN", "Infinity", "-Infinity", bytes in
 * base64, and null for a field's default. Unknown fields are ignored, as the specification
 * requires. Fields the mapping does not read are not checked either.
 */

/** A part of the body that is not what the mapping allows there, named by its path. */
class ShapeError extends Error {
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
  }
}

type JsonObject = Record<string, unknown>;

type DataKind = Exclude<DataPoint["kind"], "malformed">;

/** Metric's data fields (the `data` oneof). */
const dataFields: readonly (readonly [jsonName: string, protoName: string, kind: DataKind])[] = [
  ["gauge", "gauge", "number"],
  ["sum", "sum", "number"],
  ["histogram", "histogram", "histogram"],
  ["exponentialHistogram", "exponential_histogram", "exponentialHistogram"],
  ["summary", "summary", "summary"],
];

const anyValueFields = [
  ["stringValue", "string_value"],
  ["boolValue", "bool_value"],
  ["intValue", "int_value"],
  ["doubleValue", "double_value"],
  ["arrayValue", "array_value"],
  ["kvlistValue", "kvlist_value"],
  ["bytesValue", "bytes_value"],
] as const;

const numberValueFields = [
  ["asDouble", "as_double"],
  ["asInt", "as_int"],
] as const;

const uint32Range = [0n, 0xffff_ffffn] as const;
const uint64Range = [0n, 0xffff_ffff_ffff_ffffn] as const;
const int64Range = [-0x8000_0000_0000_0000n, 0x7fff_ffff_ffff_ffffn] as const;

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const specialDoubles = new Map([
  ["NaN", Number.NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

/**
 * Reads a parsed JSON ExportMetricsServiceRequest; OtlpBodyError when its structure is not one.
 * Integers beyond 2^53 sent as JSON numbers arrive already rounded by the JSON parser: only those
 * sent as strings (as the encoding prescribes) are exact.
 */
export function readMetricsJson(body: unknown, arrivalMs: number, maxPoints: number): OtlpMetricsResult {
  const mapping = new MetricsMapping(arrivalMs, maxPoints);
  try {
    readRequest(body, mapping);
  } catch (error) {
    if (error instanceof ShapeError) {
      throw new OtlpBodyError(`The body is not a JSON ExportMetricsServiceRequest: ${error.message}.`);
    }
    throw error;
  }
  return mapping.result();
}

function readRequest(body: unknown, mapping: MetricsMapping): void {
  const request = requiredObject(body, "the body");
  const resources = arrayAt(field(request, "resourceMetrics", "resource_metrics"), "resourceMetrics");
  for (const [index, resourceMetrics] of resources.entries()) {
    if (mapping.full) return;
    readResourceMetrics(resourceMetrics, `resourceMetrics[${index}]`, mapping);
  }
}

function readResourceMetrics(value: unknown, path: string, mapping: MetricsMapping): void {
  const resourceMetrics = requiredObject(value, path);
  const resource = optionalObject(field(resourceMetrics, "resource"), `${path}.resource`);
  const attributes = resource && attributesAt(field(resource, "attributes"), `${path}.resource.attributes`);
  const labels = attributeLabels(attributes ?? []);
  const scopes = arrayAt(field(resourceMetrics, "scopeMetrics", "scope_metrics"), `${path}.scopeMetrics`);
  for (const [index, scopeMetrics] of scopes.entries()) {
    const scopePath = `${path}.scopeMetrics[${index}]`;
    const metrics = arrayAt(field(requiredObject(scopeMetrics, scopePath), "metrics"), `${scopePath}.metrics`);
    for (const [metricIndex, metric] of metrics.entries()) {
      if (mapping.full) return;
      readMetric(metric, `${scopePath}.metrics[${metricIndex}]`, labels, mapping);
    }
  }
}

function readMetric(value: unknown, path: string, resource: PointContext["resource"], mapping: MetricsMapping): void {
  const metric = requiredObject(value, path);
  const name = stringAt(field(metric, "name"), `${path}.name`);
  const data = oneOf(metric, dataFields, path);
  if (data === undefined) {
    mapping.metricWithoutData(name);
    return;
  }
  const [[jsonName, , kind], dataValue] = data;
  const dataPath = `${path}.${jsonName}`;
  const points = arrayAt(
    field(requiredObject(dataValue, dataPath), "dataPoints", "data_points"),
    `${dataPath}.dataPoints`,
  );
  for (const [index, point] of points.entries()) {
    if (mapping.full) return;
    mapping.add({ metric: name, index, resource }, decodedPoint(point, kind));
  }
}

/** A data point of `kind`; a point whose own fields do not fit the encoding is malformed, and rejected alone. */
function decodedPoint(value: unknown, kind: DataKind): DataPoint {
  try {
    const point = requiredObject(value, "the point");
    switch (kind) {
      case "number":
        return numberPoint(point);
      case "histogram":
        return histogramPoint(point);
      case "exponentialHistogram":
        return exponentialHistogramPoint(point);
      case "summary":
        return summaryPoint(point);
    }
  } catch (error) {
    if (error instanceof ShapeError) return { kind: "malformed", reason: error.message };
    throw error;
  }
}

/** The fields every kind of data point has. */
function pointFields(point: JsonObject): { attributes: Attribute[]; time: number | undefined; flags: number } {
  const nanos = integerAt(field(point, "timeUnixNano", "time_unix_nano"), "timeUnixNano", uint64Range);
  return {
    attributes: attributesAt(field(point, "attributes"), "attributes"),
    time: nanos === 0n ? undefined : Number(nanos / 1_000_000n),
    flags: Number(integerAt(field(point, "flags"), "flags", uint32Range)),
  };
}

function numberPoint(point: JsonObject): NumberPoint {
  const fields = pointFields(point);
  const value = oneOf(point, numberValueFields, "the point");
  if (value === undefined) return { kind: "number", ...fields, value: undefined };
  const [[name], sent] = value;
  const number = name === "asDouble" ? doubleAt(sent, name) : Number(integerAt(sent, name, int64Range));
  return { kind: "number", ...fields, value: number };
}

function histogramPoint(point: JsonObject): HistogramPoint {
  const bucketCounts = arrayAt(field(point, "bucketCounts", "bucket_counts"), "bucketCounts");
  const explicitBounds = arrayAt(field(point, "explicitBounds", "explicit_bounds"), "explicitBounds");
  return {
    kind: "histogram",
    ...pointFields(point),
    ...statistics(point),
    bucketCounts: bucketCounts.map((count, index) => Number(integerAt(count, `bucketCounts[${index}]`, uint64Range))),
    explicitBounds: explicitBounds.map((bound, index) => requiredDouble(bound, `explicitBounds[${index}]`)),
  };
}

function exponentialHistogramPoint(point: JsonObject): ExponentialHistogramPoint {
  return { kind: "exponentialHistogram", ...pointFields(point), ...statistics(point) };
}

/** A histogram's count, and its sum, min and max when sent. */
function statistics(point: JsonObject): Pick<HistogramPoint, "count" | "sum" | "min" | "max"> {
  return {
    count: Number(integerAt(field(point, "count"), "count", uint64Range)),
    sum: doubleAt(field(point, "sum"), "sum"),
    min: doubleAt(field(point, "min"), "min"),
    max: doubleAt(field(point, "max"), "max"),
  };
}

function summaryPoint(point: JsonObject): SummaryPoint {
  const quantiles = arrayAt(field(point, "quantileValues", "quantile_values"), "quantileValues");
  return {
    kind: "summary",
    ...pointFields(point),
    count: Number(integerAt(field(point, "count"), "count", uint64Range)),
    sum: doubleAt(field(point, "sum"), "sum") ?? 0,
    quantiles: quantiles.map((value, index) => {
      const path = `quantileValues[${index}]`;
      const valueAtQuantile = requiredObject(value, path);
      return {
        quantile: doubleAt(field(valueAtQuantile, "quantile"), `${path}.quantile`) ?? 0,
        value: doubleAt(field(valueAtQuantile, "value"), `${path}.value`) ?? 0,
      };
    }),
  };
}

/** How deep in arrays and kvlists a value is, and the attribute value that holds it all, to name in a refusal. */
interface Nesting {
  depth: number;
  outermost: string;
}

/** Attributes: a list of KeyValue, the values of a kvlist when `within` one. */
function attributesAt(value: unknown, path: string, within?: Nesting): Attribute[] {
  return arrayAt(value, path).map((item, index) => {
    const itemPath = `${path}[${index}]`;
    const keyValue = requiredObject(item, itemPath);
    const valuePath = `${itemPath}.value`;
    return [
      stringAt(field(keyValue, "key"), `${itemPath}.key`),
      anyValueAt(field(keyValue, "value"), valuePath, within ?? { depth: 0, outermost: valuePath }),
    ];
  });
}

function anyValueAt(value: unknown, path: string, nesting: Nesting): AnyValue {
  const anyValue = optionalObject(value, path);
  const member = anyValue && oneOf(anyValue, anyValueFields, path);
  if (member === undefined) return undefined;
  const [[name], sent] = member;
  const memberPath = `${path}.${name}`;
  const deeper = { depth: nesting.depth + 1, outermost: nesting.outermost };
  switch (name) {
    case "stringValue":
      return stringAt(sent, memberPath);
    case "boolValue":
      if (typeof sent !== "boolean") throw new ShapeError(memberPath, "must be true or false");
      return sent;
    case "intValue":
      return integerAt(sent, memberPath, int64Range);
    case "doubleValue":
      return requiredDouble(sent, memberPath);
    case "arrayValue":
      return nestedValues(sent, memberPath, deeper).map((item, index) =>
        anyValueAt(item, `${memberPath}.values[${index}]`, deeper),
      );
    case "kvlistValue":
      return { keyValues: attributesAt(nestedValues(sent, memberPath, deeper), `${memberPath}.values`, deeper) };
    case "bytesValue":
      return bytesAt(sent, memberPath);
  }
}

/** The `values` of an ArrayValue or a KeyValueList. */
function nestedValues(value: unknown, path: string, nesting: Nesting): readonly unknown[] {
  if (nesting.depth > maxValueNesting) {
    throw new ShapeError(nesting.outermost, `attribute values nest more than ${maxValueNesting} levels deep`);
  }
  return arrayAt(field(requiredObject(value, path), "values"), `${path}.values`);
}

/** A field by its JSON name or its proto name; null stands for the default value, as if absent. */
function field(message: JsonObject, jsonName: string, protoName = jsonName): unknown {
  return message[jsonName] ?? message[protoName] ?? undefined;
}

/** The member of a oneof that is set, with its value; two set are an error, as in protobuf's JSON parsers. */
function oneOf<Member extends readonly [string, string, ...unknown[]]>(
  message: JsonObject,
  members: readonly Member[],
  path: string,
): [Member, unknown] | undefined {
  const set = members.filter(([jsonName, protoName]) => field(message, jsonName, protoName) !== undefined);
  if (set.length > 1) throw new ShapeError(path, `sets both ${set[0]![0]} and ${set[1]![0]}`);
  const [member] = set;
  return member && [member, field(message, member[0], member[1])];
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requiredObject(value: unknown, path: string): JsonObject {
  if (!isJsonObject(value)) throw new ShapeError(path, "must be an object");
  return value;
}

function optionalObject(value: unknown, path: string): JsonObject | undefined {
  return value === undefined ? undefined : requiredObject(value, path);
}

/** A repeated field; absent is empty. */
function arrayAt(value: unknown, path: string): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ShapeError(path, "must be an array");
  return value;
}

function stringAt(value: unknown, path: string): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw new ShapeError(path, "must be a string");
  return value;
}

/** An integer field within `range`, exactly: from a number, or from a decimal string (how 64-bit integers are sent). */
function integerAt(value: unknown, path: string, [min, max]: readonly [bigint, bigint]): bigint {
  if (value === undefined) return 0n;
  let integer: bigint;
  if (typeof value === "number" && Number.isInteger(value)) integer = BigInt(value);
  else if (typeof value === "string" && /^-?\d+$/.test(value)) integer = BigInt(value);
  else throw new ShapeError(path, "must be an integer, as a number or a decimal string");
  if (integer < min || integer > max) throw new ShapeError(path, `must be between ${min} and ${max}`);
  return integer;
}

/** A double field, undefined when absent (`optional` fields are absent, others 0). */
function doubleAt(value: unknown, path: string): number | undefined {
  if (value === undefined || typeof value === "number") return value;
  if (typeof value === "string") {
    const special = specialDoubles.get(value);
    if (special !== undefined) return special;
    if (jsonNumber.test(value)) return Number(value);
  }
  throw new ShapeError(path, 'must be a number, "NaN", "Infinity" or "-Infinity"');
}

/** A double where the encoding has no absence (elements of a list, an AnyValue's member). */
function requiredDouble(value: unknown, path: string): number {
  const double = doubleAt(value, path);
  if (double === undefined) throw new ShapeError(path, "must be a number");
  return double;
}

function bytesAt(value: unknown, path: string): Uint8Array {
  if (typeof value !== "string") throw new ShapeError(path, "must be a base64 string");
  let binary: string;
  try {
    // Protobuf's JSON parsers accept the URL-safe alphabet too.
    binary = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw new ShapeError(path, "must be a base64 string");
  }
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
