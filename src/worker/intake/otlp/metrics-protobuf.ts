import { nanosToMillis, ProtobufError, ProtobufReader, wireType } from "../common/protobuf-reader";
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
 * Field numbers of opentelemetry-proto (collector/metrics/v1, metrics/v1, common/v1, resource/v1).
 * Fields the mapping does not read (descriptions, units, start times, exemplars, temporality,
 * exponential buckets, scopes, schema URLs, the profiling signal's string-table indexes) are
 * skipped like unknown fields.
 */

type DataKind = Exclude<DataPoint["kind"], "malformed">;

/** Metric's data fields (the `data` oneof), each a message whose field 1 is its data points. */
const dataKinds = new Map<number, DataKind>([
  [5, "number"],
  [7, "number"],
  [9, "histogram"],
  [10, "exponentialHistogram"],
  [11, "summary"],
]);

/** Reads a protobuf ExportMetricsServiceRequest; OtlpBodyError when it cannot be decoded. */
export function readMetricsProtobuf(body: Uint8Array, arrivalMs: number, maxPoints: number): OtlpMetricsResult {
  const mapping = new MetricsMapping(arrivalMs, maxPoints);
  try {
    new RequestReader(body, mapping).read();
  } catch (error) {
    if (error instanceof ProtobufError) {
      throw new OtlpBodyError(`The body is not a protobuf ExportMetricsServiceRequest: ${error.message}.`);
    }
    throw error;
  }
  return mapping.result();
}

class RequestReader {
  constructor(
    private readonly body: Uint8Array,
    private readonly mapping: MetricsMapping,
  ) {}

  read(): void {
    const reader = new ProtobufReader(this.body);
    while (reader.hasMore() && !this.mapping.full) {
      const { field, type } = reader.tag();
      if (field === 1) this.resourceMetrics(this.twoReaders(reader, type));
      else reader.skip(type);
    }
  }

  /**
   * Two readers of the embedded message at the reader: fields may come in any order, and what a
   * message's data mean depends on fields that may come after them (the resource, the metric's name).
   * Reading twice rather than keeping the message's parts keeps memory bounded by the output.
   */
  private twoReaders(reader: ProtobufReader, type: number): [ProtobufReader, ProtobufReader] {
    reader.expect(type, wireType.lengthDelimited);
    const first = reader.message();
    return [first, new ProtobufReader(this.body, first.offset, reader.offset)];
  }

  private resourceMetrics([first, second]: [ProtobufReader, ProtobufReader]): void {
    // A message field sent twice is merged: the attributes of every `resource` add up.
    const attributes: Attribute[] = [];
    while (first.hasMore()) {
      const { field, type } = first.tag();
      if (field === 1) attributes.push(...resourceAttributes(message(first, type)));
      else first.skip(type);
    }
    const resource = attributeLabels(attributes);
    while (second.hasMore() && !this.mapping.full) {
      const { field, type } = second.tag();
      if (field === 2) this.scopeMetrics(message(second, type), resource);
      else second.skip(type);
    }
  }

  private scopeMetrics(reader: ProtobufReader, resource: PointContext["resource"]): void {
    while (reader.hasMore() && !this.mapping.full) {
      const { field, type } = reader.tag();
      if (field === 2) this.metric(this.twoReaders(reader, type), resource);
      else reader.skip(type);
    }
  }

  private metric([first, second]: [ProtobufReader, ProtobufReader], resource: PointContext["resource"]): void {
    let name = "";
    // Of a oneof, the last member sent wins; a member sent several times in a row is merged.
    let dataField = 0;
    let dataFrom = 0;
    while (first.hasMore()) {
      const at = first.offset;
      const { field, type } = first.tag();
      if (field === 1) {
        first.expect(type, wireType.lengthDelimited);
        name = first.string();
        continue;
      }
      if (dataKinds.has(field)) {
        first.expect(type, wireType.lengthDelimited);
        if (field !== dataField) {
          dataField = field;
          dataFrom = at;
        }
      }
      first.skip(type);
    }
    const kind = dataKinds.get(dataField);
    if (kind === undefined) {
      this.mapping.metricWithoutData(name);
      return;
    }
    let index = 0;
    while (second.hasMore() && !this.mapping.full) {
      const at = second.offset;
      const { field, type } = second.tag();
      if (field === dataField && at >= dataFrom) {
        index = this.dataPoints(message(second, type), kind, { metric: name, index, resource });
      } else second.skip(type);
    }
  }

  /** Reads the data points of a Gauge, Sum, Histogram, ExponentialHistogram or Summary; the next point's index. */
  private dataPoints(reader: ProtobufReader, kind: DataKind, context: PointContext): number {
    let index = context.index;
    while (reader.hasMore() && !this.mapping.full) {
      const { field, type } = reader.tag();
      if (field !== 1) {
        reader.skip(type);
        continue;
      }
      const point = message(reader, type);
      this.mapping.add({ ...context, index }, decodedPoint(point, kind));
      index++;
    }
    return index;
  }
}

/** The embedded message of a field of a message type. */
function message(reader: ProtobufReader, type: number): ProtobufReader {
  reader.expect(type, wireType.lengthDelimited);
  return reader.message();
}

function double(reader: ProtobufReader, type: number): number {
  reader.expect(type, wireType.fixed64);
  return reader.double();
}

function fixed64(reader: ProtobufReader, type: number): number {
  reader.expect(type, wireType.fixed64);
  return reader.fixed64();
}

/** Resource.attributes. */
function resourceAttributes(reader: ProtobufReader): Attribute[] {
  const attributes: Attribute[] = [];
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    if (field === 1) attributes.push(keyValue(message(reader, type), 0));
    else reader.skip(type);
  }
  return attributes;
}

/** A KeyValue, `nesting` arrays and kvlists deep. */
function keyValue(reader: ProtobufReader, nesting: number): Attribute {
  let key = "";
  let value: AnyValue;
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    if (field === 1) {
      reader.expect(type, wireType.lengthDelimited);
      key = reader.string();
    } else if (field === 2) value = anyValue(message(reader, type), nesting);
    else reader.skip(type);
  }
  return [key, value];
}

/** An AnyValue: of its `value` oneof, the last member sent. */
function anyValue(reader: ProtobufReader, nesting: number): AnyValue {
  let value: AnyValue;
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    switch (field) {
      case 1:
        reader.expect(type, wireType.lengthDelimited);
        value = reader.string();
        break;
      case 2:
        reader.expect(type, wireType.varint);
        value = reader.bool();
        break;
      case 3:
        reader.expect(type, wireType.varint);
        value = BigInt(reader.int64());
        break;
      case 4:
        value = double(reader, type);
        break;
      case 5:
        value = nestedValues(message(reader, type), nesting + 1, (item) => anyValue(item, nesting + 1));
        break;
      case 6:
        value = { keyValues: nestedValues(message(reader, type), nesting + 1, (item) => keyValue(item, nesting + 1)) };
        break;
      case 7:
        reader.expect(type, wireType.lengthDelimited);
        value = reader.bytesField();
        break;
      default:
        reader.skip(type);
    }
  }
  return value;
}

/** The `values` (field 1) of an ArrayValue or a KeyValueList. */
function nestedValues<T>(reader: ProtobufReader, nesting: number, read: (item: ProtobufReader) => T): T[] {
  if (nesting > maxValueNesting) {
    throw new ProtobufError(`attribute values nest more than ${maxValueNesting} levels deep`, reader.offset);
  }
  const values: T[] = [];
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    if (field === 1) values.push(read(message(reader, type)));
    else reader.skip(type);
  }
  return values;
}

/** A data point of `kind`; a point whose own bytes cannot be decoded is malformed, and rejected alone. */
function decodedPoint(reader: ProtobufReader, kind: DataKind): DataPoint {
  try {
    switch (kind) {
      case "number":
        return numberPoint(reader);
      case "histogram":
        return histogramPoint(reader);
      case "exponentialHistogram":
        return exponentialHistogramPoint(reader);
      case "summary":
        return summaryPoint(reader);
    }
  } catch (error) {
    if (error instanceof ProtobufError) return { kind: "malformed", reason: `cannot be decoded: ${error.message}` };
    throw error;
  }
}

/**
 * Reads a data point: the fields every kind has (attributes and flags at the kind's own numbers,
 * time_unix_nano at 3), and the others through `other`.
 */
function pointFields(
  reader: ProtobufReader,
  numbers: { attributes: number; flags: number },
  other: (field: number, type: number) => void,
): { attributes: Attribute[]; time: number | undefined; flags: number } {
  const attributes: Attribute[] = [];
  let time: number | undefined;
  let flags = 0;
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    if (field === numbers.attributes) attributes.push(keyValue(message(reader, type), 0));
    else if (field === 3) {
      reader.expect(type, wireType.fixed64);
      const [low, high] = reader.fixed64Halves();
      time = low === 0 && high === 0 ? undefined : nanosToMillis(low, high);
    } else if (field === numbers.flags) {
      reader.expect(type, wireType.varint);
      flags = reader.varint();
    } else other(field, type);
  }
  return { attributes, time, flags };
}

function numberPoint(reader: ProtobufReader): NumberPoint {
  let value: number | undefined;
  const fields = pointFields(reader, { attributes: 7, flags: 8 }, (field, type) => {
    if (field === 4) value = double(reader, type);
    else if (field === 6) {
      reader.expect(type, wireType.fixed64);
      value = reader.sfixed64();
    } else reader.skip(type);
  });
  return { kind: "number", ...fields, value };
}

function histogramPoint(reader: ProtobufReader): HistogramPoint {
  let count = 0;
  let sum: number | undefined;
  let min: number | undefined;
  let max: number | undefined;
  const bucketCounts: number[] = [];
  const explicitBounds: number[] = [];
  const fields = pointFields(reader, { attributes: 9, flags: 10 }, (field, type) => {
    if (field === 4) count = fixed64(reader, type);
    else if (field === 5) sum = double(reader, type);
    else if (field === 6) reader.repeated(type, wireType.fixed64, (packed) => bucketCounts.push(packed.fixed64()));
    else if (field === 7) reader.repeated(type, wireType.fixed64, (packed) => explicitBounds.push(packed.double()));
    else if (field === 11) min = double(reader, type);
    else if (field === 12) max = double(reader, type);
    else reader.skip(type);
  });
  return { kind: "histogram", ...fields, count, sum, min, max, bucketCounts, explicitBounds };
}

function exponentialHistogramPoint(reader: ProtobufReader): ExponentialHistogramPoint {
  let count = 0;
  let sum: number | undefined;
  let min: number | undefined;
  let max: number | undefined;
  const fields = pointFields(reader, { attributes: 1, flags: 10 }, (field, type) => {
    if (field === 4) count = fixed64(reader, type);
    else if (field === 5) sum = double(reader, type);
    else if (field === 12) min = double(reader, type);
    else if (field === 13) max = double(reader, type);
    else reader.skip(type);
  });
  return { kind: "exponentialHistogram", ...fields, count, sum, min, max };
}

function summaryPoint(reader: ProtobufReader): SummaryPoint {
  let count = 0;
  let sum = 0;
  const quantiles: SummaryPoint["quantiles"] = [];
  const fields = pointFields(reader, { attributes: 7, flags: 8 }, (field, type) => {
    if (field === 4) count = fixed64(reader, type);
    else if (field === 5) sum = double(reader, type);
    else if (field === 6) quantiles.push(valueAtQuantile(message(reader, type)));
    else reader.skip(type);
  });
  return { kind: "summary", ...fields, count, sum, quantiles };
}

function valueAtQuantile(reader: ProtobufReader): SummaryPoint["quantiles"][number] {
  let quantile = 0;
  let value = 0;
  while (reader.hasMore()) {
    const { field, type } = reader.tag();
    if (field === 1) quantile = double(reader, type);
    else if (field === 2) value = double(reader, type);
    else reader.skip(type);
  }
  return { quantile, value };
}
