/*
 * Test support: encodes an OTLP metrics message written in the OTLP JSON encoding into protobuf,
 * so that every test case can be written once and read in both encodings. Fields are written in
 * the order the object lists them (tests choose the order), every field given is written (also
 * default values), and nulls are left out. Written by hand from opentelemetry-proto, independently
 * of the readers under test.
 */

type Scalar =
  | "string"
  | "bool"
  | "enum"
  | "uint32"
  | "sint32"
  | "int64"
  | "double"
  | "fixed64"
  | "sfixed64"
  | "bytes"
  | "hexBytes"
  | "packedFixed64"
  | "packedDouble"
  | "packedUint64";

interface Field {
  number: number;
  type: Scalar | MessageName;
}

type MessageName =
  | "ExportMetricsServiceRequest"
  | "ResourceMetrics"
  | "Resource"
  | "ScopeMetrics"
  | "InstrumentationScope"
  | "Metric"
  | "Gauge"
  | "Sum"
  | "Histogram"
  | "ExponentialHistogram"
  | "Summary"
  | "NumberDataPoint"
  | "HistogramDataPoint"
  | "ExponentialHistogramDataPoint"
  | "Buckets"
  | "SummaryDataPoint"
  | "ValueAtQuantile"
  | "Exemplar"
  | "KeyValue"
  | "AnyValue"
  | "ArrayValue"
  | "KeyValueList";

const attributes = (number: number): Field => ({ number, type: "KeyValue" });

const schemas = {
  ExportMetricsServiceRequest: { resourceMetrics: { number: 1, type: "ResourceMetrics" } },
  ResourceMetrics: {
    resource: { number: 1, type: "Resource" },
    scopeMetrics: { number: 2, type: "ScopeMetrics" },
    schemaUrl: { number: 3, type: "string" },
  },
  Resource: { attributes: attributes(1), droppedAttributesCount: { number: 2, type: "uint32" } },
  ScopeMetrics: {
    scope: { number: 1, type: "InstrumentationScope" },
    metrics: { number: 2, type: "Metric" },
    schemaUrl: { number: 3, type: "string" },
  },
  InstrumentationScope: {
    name: { number: 1, type: "string" },
    version: { number: 2, type: "string" },
    attributes: attributes(3),
    droppedAttributesCount: { number: 4, type: "uint32" },
  },
  Metric: {
    name: { number: 1, type: "string" },
    description: { number: 2, type: "string" },
    unit: { number: 3, type: "string" },
    gauge: { number: 5, type: "Gauge" },
    sum: { number: 7, type: "Sum" },
    histogram: { number: 9, type: "Histogram" },
    exponentialHistogram: { number: 10, type: "ExponentialHistogram" },
    summary: { number: 11, type: "Summary" },
    metadata: attributes(12),
  },
  Gauge: { dataPoints: { number: 1, type: "NumberDataPoint" } },
  Sum: {
    dataPoints: { number: 1, type: "NumberDataPoint" },
    aggregationTemporality: { number: 2, type: "enum" },
    isMonotonic: { number: 3, type: "bool" },
  },
  Histogram: {
    dataPoints: { number: 1, type: "HistogramDataPoint" },
    aggregationTemporality: { number: 2, type: "enum" },
  },
  ExponentialHistogram: {
    dataPoints: { number: 1, type: "ExponentialHistogramDataPoint" },
    aggregationTemporality: { number: 2, type: "enum" },
  },
  Summary: { dataPoints: { number: 1, type: "SummaryDataPoint" } },
  NumberDataPoint: {
    attributes: attributes(7),
    startTimeUnixNano: { number: 2, type: "fixed64" },
    timeUnixNano: { number: 3, type: "fixed64" },
    asDouble: { number: 4, type: "double" },
    asInt: { number: 6, type: "sfixed64" },
    exemplars: { number: 5, type: "Exemplar" },
    flags: { number: 8, type: "uint32" },
  },
  HistogramDataPoint: {
    attributes: attributes(9),
    startTimeUnixNano: { number: 2, type: "fixed64" },
    timeUnixNano: { number: 3, type: "fixed64" },
    count: { number: 4, type: "fixed64" },
    sum: { number: 5, type: "double" },
    bucketCounts: { number: 6, type: "packedFixed64" },
    explicitBounds: { number: 7, type: "packedDouble" },
    exemplars: { number: 8, type: "Exemplar" },
    flags: { number: 10, type: "uint32" },
    min: { number: 11, type: "double" },
    max: { number: 12, type: "double" },
  },
  ExponentialHistogramDataPoint: {
    attributes: attributes(1),
    startTimeUnixNano: { number: 2, type: "fixed64" },
    timeUnixNano: { number: 3, type: "fixed64" },
    count: { number: 4, type: "fixed64" },
    sum: { number: 5, type: "double" },
    scale: { number: 6, type: "sint32" },
    zeroCount: { number: 7, type: "fixed64" },
    positive: { number: 8, type: "Buckets" },
    negative: { number: 9, type: "Buckets" },
    flags: { number: 10, type: "uint32" },
    exemplars: { number: 11, type: "Exemplar" },
    min: { number: 12, type: "double" },
    max: { number: 13, type: "double" },
    zeroThreshold: { number: 14, type: "double" },
  },
  Buckets: { offset: { number: 1, type: "sint32" }, bucketCounts: { number: 2, type: "packedUint64" } },
  SummaryDataPoint: {
    attributes: attributes(7),
    startTimeUnixNano: { number: 2, type: "fixed64" },
    timeUnixNano: { number: 3, type: "fixed64" },
    count: { number: 4, type: "fixed64" },
    sum: { number: 5, type: "double" },
    quantileValues: { number: 6, type: "ValueAtQuantile" },
    flags: { number: 8, type: "uint32" },
  },
  ValueAtQuantile: { quantile: { number: 1, type: "double" }, value: { number: 2, type: "double" } },
  Exemplar: {
    filteredAttributes: attributes(7),
    timeUnixNano: { number: 2, type: "fixed64" },
    asDouble: { number: 3, type: "double" },
    asInt: { number: 6, type: "sfixed64" },
    spanId: { number: 4, type: "hexBytes" },
    traceId: { number: 5, type: "hexBytes" },
  },
  KeyValue: { key: { number: 1, type: "string" }, value: { number: 2, type: "AnyValue" } },
  AnyValue: {
    stringValue: { number: 1, type: "string" },
    boolValue: { number: 2, type: "bool" },
    intValue: { number: 3, type: "int64" },
    doubleValue: { number: 4, type: "double" },
    arrayValue: { number: 5, type: "ArrayValue" },
    kvlistValue: { number: 6, type: "KeyValueList" },
    bytesValue: { number: 7, type: "bytes" },
  },
  ArrayValue: { values: { number: 1, type: "AnyValue" } },
  KeyValueList: { values: { number: 1, type: "KeyValue" } },
} satisfies Record<MessageName, Record<string, Field>>;

const doubles: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, "-Infinity": -Infinity };

/** A protobuf ExportMetricsServiceRequest from its OTLP JSON form. */
export function encodeRequest(request: object): Uint8Array {
  return encodeMessage("ExportMetricsServiceRequest", request);
}

/** A protobuf message of `type` from its OTLP JSON form. */
export function encodeMessage(type: MessageName, message: object): Uint8Array {
  const schema: Record<string, Field> = schemas[type];
  const bytes: number[] = [];
  for (const [name, value] of Object.entries(message)) {
    const field = schema[name];
    if (field === undefined) throw new Error(`${type} has no field ${name}`);
    if (value === null) continue;
    for (const item of Array.isArray(value) && !field.type.startsWith("packed") ? value : [value]) {
      bytes.push(...encodeField(field, item));
    }
  }
  return Uint8Array.from(bytes);
}

function encodeField({ number, type }: Field, value: unknown): number[] {
  const key = (wireType: number) => varint(BigInt(number * 8 + wireType));
  switch (type) {
    case "string":
      return [...key(2), ...delimited(new TextEncoder().encode(value as string))];
    case "bytes":
      return [...key(2), ...delimited(Uint8Array.from(atob(value as string), (c) => c.charCodeAt(0)))];
    case "hexBytes":
      return [
        ...key(2),
        ...delimited(Uint8Array.from((value as string).match(/../g) ?? [], (h) => Number.parseInt(h, 16))),
      ];
    case "bool":
      return [...key(0), value ? 1 : 0];
    case "enum":
    case "uint32":
    case "int64":
      return [...key(0), ...varint(BigInt.asUintN(64, BigInt(value as string)))];
    case "sint32": {
      const integer = BigInt(value as number);
      return [...key(0), ...varint(integer >= 0n ? integer * 2n : -integer * 2n - 1n)];
    }
    case "double":
      return [...key(1), ...float64(value)];
    case "fixed64":
    case "sfixed64":
      return [...key(1), ...fixed64(BigInt(value as string))];
    case "packedFixed64":
      return [...key(2), ...delimited((value as unknown[]).flatMap((item) => fixed64(BigInt(item as string))))];
    case "packedDouble":
      return [...key(2), ...delimited((value as unknown[]).flatMap(float64))];
    case "packedUint64":
      return [...key(2), ...delimited((value as unknown[]).flatMap((item) => varint(BigInt(item as string))))];
    default:
      // Bytes given for a message are written as they are: tests compose messages the encoder cannot express.
      return [...key(2), ...delimited(value instanceof Uint8Array ? value : encodeMessage(type, value as object))];
  }
}

export function varint(value: bigint): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return bytes;
}

function delimited(bytes: ArrayLike<number>): number[] {
  return [...varint(BigInt(bytes.length)), ...Array.from(bytes)];
}

function fixed64(value: bigint): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt.asUintN(64, value), true);
  return [...new Uint8Array(view.buffer)];
}

function float64(value: unknown): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, typeof value === "string" ? (doubles[value] ?? Number(value)) : (value as number), true);
  return [...new Uint8Array(view.buffer)];
}
