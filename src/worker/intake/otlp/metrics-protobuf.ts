import { BytesTable } from "../common/bytes-table";
import { nanosToMillis, ProtobufError, ProtobufReader, wireType } from "../common/protobuf-reader";
import { tabledRun } from "../common/tabled-run";
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

/**
 * One reader over the whole body, entering each embedded message in place. Fields may come in any
 * order, and what a message's data mean depends on fields that may come after them (the resource,
 * the metric's name): such a message is read twice rather than its parts kept, which keeps memory
 * bounded by the output.
 */
class RequestReader {
  private readonly reader: ProtobufReader;

  constructor(
    body: Uint8Array,
    private readonly mapping: MetricsMapping,
  ) {
    this.reader = new ProtobufReader(body);
  }

  read(): void {
    this.eachField(1, () => this.resourceMetrics());
  }

  /**
   * Calls `visit`, the reader at the field's content, for each field numbered `field` of the
   * message the reader is in, passing over the others, until the message ends or the mapping is full.
   */
  private eachField(field: number, visit: () => void): void {
    const reader = this.reader;
    while (reader.hasMore() && !this.mapping.full) {
      if (reader.field() === field) visit();
      else reader.skip(reader.type);
    }
  }

  private resourceMetrics(): void {
    const reader = this.reader;
    const outerEnd = enter(reader);
    const start = reader.offset;
    const end = reader.limit;
    // A message field sent twice is merged: the attributes of every `resource` add up.
    let attributes: readonly Attribute[] = [];
    while (reader.hasMore()) {
      const field = reader.field();
      if (field === 1) attributes = resourceAttributes(reader, attributes);
      else reader.skip(reader.type);
    }
    const resource = attributeLabels(attributes);
    reader.restore(start, end);
    this.eachField(2, () => this.scopeMetrics(resource));
    reader.leave(outerEnd);
  }

  private scopeMetrics(resource: PointContext["resource"]): void {
    const outerEnd = enter(this.reader);
    this.eachField(2, () => this.metric(resource));
    this.reader.leave(outerEnd);
  }

  private metric(resource: PointContext["resource"]): void {
    const reader = this.reader;
    const outerEnd = enter(reader);
    const start = reader.offset;
    const end = reader.limit;
    let name = "";
    // Of a oneof, the last member sent wins; a member sent several times in a row is merged.
    let dataField = 0;
    let dataFrom = 0;
    while (reader.hasMore()) {
      const at = reader.offset;
      const field = reader.field();
      const type = reader.type;
      if (field === 1) {
        reader.expect(type, wireType.lengthDelimited);
        name = reader.string();
        continue;
      }
      if (dataKinds.has(field)) {
        reader.expect(type, wireType.lengthDelimited);
        if (field !== dataField) {
          dataField = field;
          dataFrom = at;
        }
      }
      reader.skip(type);
    }
    reader.restore(start, end);
    const kind = dataKinds.get(dataField);
    if (kind === undefined) this.mapping.metricWithoutData(name);
    else {
      // One context for all the metric's points, its index moved on point by point.
      const context: PointContext = { metric: name, index: 0, resource };
      while (reader.hasMore() && !this.mapping.full) {
        const at = reader.offset;
        const field = reader.field();
        if (field === dataField && at >= dataFrom) this.dataPoints(kind, context);
        else reader.skip(reader.type);
      }
    }
    reader.leave(outerEnd);
  }

  /** Reads the data points of a Gauge, Sum, Histogram, ExponentialHistogram or Summary. */
  private dataPoints(kind: DataKind, context: PointContext): void {
    const reader = this.reader;
    const outerEnd = enter(reader);
    this.eachField(1, () => {
      const dataEnd = enter(reader);
      const point = decodedPoint(reader, kind);
      reader.leave(dataEnd);
      this.mapping.add(context, point);
      context.index++;
    });
    reader.leave(outerEnd);
  }
}

/** Enters the embedded message of a field of a message type, whose tag the reader has read; the end leave() takes. */
function enter(reader: ProtobufReader): number {
  reader.expect(reader.type, wireType.lengthDelimited);
  return reader.enter();
}

function double(reader: ProtobufReader, type: number): number {
  reader.expect(type, wireType.fixed64);
  return reader.double();
}

function fixed64(reader: ProtobufReader, type: number): number {
  reader.expect(type, wireType.fixed64);
  return reader.fixed64();
}

/** `attributes` with those of the Resource message at the reader. */
function resourceAttributes(reader: ProtobufReader, attributes: readonly Attribute[]): readonly Attribute[] {
  const outerEnd = enter(reader);
  let all = attributes;
  while (reader.hasMore()) {
    const field = reader.field();
    if (field === 1) all = withAttributes(reader, field, all);
    else reader.skip(reader.type);
  }
  reader.leave(outerEnd);
  return all;
}

/**
 * Attribute sets found again by their bytes: a client sends the same sets export after export, and
 * metric after metric. Only sets of string values are kept (frozen): they are then the labels too.
 */
const attributeSets = new BytesTable<readonly Attribute[]>(4_096, 1_024);

/** Attributes a message is given one by one: its own array, not one the table keeps. */
const isOwn = (attributes: readonly Attribute[]): attributes is Attribute[] => !Object.isFrozen(attributes);

const hasStringValue = ([, value]: Attribute) => typeof value === "string";

/** The run of KeyValue fields at the reader (its first tag read), the table's when all values are strings. */
function readAttributeRun(reader: ProtobufReader): readonly Attribute[] {
  const attributes = [keyValue(reader, 0)];
  while (reader.hasMore()) {
    reader.field();
    attributes.push(keyValue(reader, 0));
  }
  return attributes.every(hasStringValue) ? Object.freeze(attributes) : attributes;
}

/**
 * `attributes` with the KeyValue field `field` at the reader (its tag read): a message's first run
 * of them (all of them, as clients send them) found in `attributeSets`, or read there; any other
 * read one by one.
 */
function withAttributes(reader: ProtobufReader, field: number, attributes: readonly Attribute[]): readonly Attribute[] {
  if (attributes.length === 0) {
    const run = tabledRun(reader, field, attributeSets, readAttributeRun);
    if (run !== undefined) return run;
  }
  const own = isOwn(attributes) ? attributes : [...attributes];
  own.push(keyValue(reader, 0));
  return own;
}

/** The KeyValue message at the reader, `nesting` arrays and kvlists deep. */
function keyValue(reader: ProtobufReader, nesting: number): Attribute {
  const outerEnd = enter(reader);
  let key = "";
  let value: AnyValue;
  while (reader.hasMore()) {
    const field = reader.field();
    if (field === 1) {
      reader.expect(reader.type, wireType.lengthDelimited);
      key = reader.string();
    } else if (field === 2) value = anyValue(reader, nesting);
    else reader.skip(reader.type);
  }
  reader.leave(outerEnd);
  return [key, value];
}

/** The AnyValue message at the reader: of its `value` oneof, the last member sent. */
function anyValue(reader: ProtobufReader, nesting: number): AnyValue {
  const outerEnd = enter(reader);
  let value: AnyValue;
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
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
        value = nestedValues(reader, nesting + 1, () => anyValue(reader, nesting + 1));
        break;
      case 6:
        value = { keyValues: nestedValues(reader, nesting + 1, () => keyValue(reader, nesting + 1)) };
        break;
      case 7:
        reader.expect(type, wireType.lengthDelimited);
        value = reader.bytesField();
        break;
      default:
        reader.skip(type);
    }
  }
  reader.leave(outerEnd);
  return value;
}

/** The `values` (field 1) of the ArrayValue or KeyValueList message at the reader, each read by `read`. */
function nestedValues<T>(reader: ProtobufReader, nesting: number, read: () => T): T[] {
  const outerEnd = enter(reader);
  if (nesting > maxValueNesting) {
    throw new ProtobufError(`attribute values nest more than ${maxValueNesting} levels deep`, reader.offset);
  }
  const values: T[] = [];
  while (reader.hasMore()) {
    const field = reader.field();
    if (field === 1) values.push(read());
    else reader.skip(reader.type);
  }
  reader.leave(outerEnd);
  return values;
}

/**
 * The data point of `kind` the reader is in; a point whose own bytes cannot be decoded is
 * malformed, and rejected alone: the reader is then at its end, to go on after it.
 */
function decodedPoint(reader: ProtobufReader, kind: DataKind): DataPoint {
  const end = reader.limit;
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
    if (!(error instanceof ProtobufError)) throw error;
    reader.restore(end, end);
    return { kind: "malformed", reason: `cannot be decoded: ${error.message}` };
  }
}

/** A point's fields as they are read. */
interface PointInReading {
  attributes: readonly Attribute[];
  time: number | undefined;
  flags: number;
}

/** The numbers of the fields every kind of point has but at its own numbers (time_unix_nano is 3 in all). */
interface CommonFields {
  attributes: number;
  flags: number;
}

const numberFields: CommonFields = { attributes: 7, flags: 8 };
const histogramFields: CommonFields = { attributes: 9, flags: 10 };
const exponentialHistogramFields: CommonFields = { attributes: 1, flags: 10 };
const summaryFields: CommonFields = { attributes: 7, flags: 8 };

/** Reads `field` into `point` when every kind of point has it (attributes, time, flags); skips it otherwise. */
function commonField(reader: ProtobufReader, field: number, numbers: CommonFields, point: PointInReading): void {
  const type = reader.type;
  if (field === numbers.attributes) point.attributes = withAttributes(reader, field, point.attributes);
  else if (field === 3) {
    reader.expect(type, wireType.fixed64);
    const halves = reader.fixed64Halves();
    const low = halves[0]!;
    const high = halves[1]!;
    point.time = low === 0 && high === 0 ? undefined : nanosToMillis(low, high);
  } else if (field === numbers.flags) {
    reader.expect(type, wireType.varint);
    point.flags = reader.varint();
  } else reader.skip(type);
}

function numberPoint(reader: ProtobufReader): NumberPoint {
  const point: PointInReading & NumberPoint = {
    kind: "number",
    attributes: [],
    time: undefined,
    flags: 0,
    value: undefined,
  };
  while (reader.hasMore()) {
    const field = reader.field();
    if (field === 4) point.value = double(reader, reader.type);
    else if (field === 6) {
      reader.expect(reader.type, wireType.fixed64);
      point.value = reader.sfixed64();
    } else commonField(reader, field, numberFields, point);
  }
  return point;
}

/** What a histogram's and an exponential histogram's points hold before their fields are read. */
const distributionStart = () => ({
  attributes: [] as readonly Attribute[],
  time: undefined,
  flags: 0,
  count: 0,
  sum: undefined,
  min: undefined,
  max: undefined,
});

function histogramPoint(reader: ProtobufReader): HistogramPoint {
  const point: PointInReading & HistogramPoint = {
    kind: "histogram",
    ...distributionStart(),
    bucketCounts: [],
    explicitBounds: [],
  };
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field === 4) point.count = fixed64(reader, type);
    else if (field === 5) point.sum = double(reader, type);
    else if (field === 6) reader.repeated(type, wireType.fixed64, () => point.bucketCounts.push(reader.fixed64()));
    else if (field === 7) reader.repeated(type, wireType.fixed64, () => point.explicitBounds.push(reader.double()));
    else if (field === 11) point.min = double(reader, type);
    else if (field === 12) point.max = double(reader, type);
    else commonField(reader, field, histogramFields, point);
  }
  return point;
}

function exponentialHistogramPoint(reader: ProtobufReader): ExponentialHistogramPoint {
  const point: PointInReading & ExponentialHistogramPoint = {
    kind: "exponentialHistogram",
    ...distributionStart(),
  };
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field === 4) point.count = fixed64(reader, type);
    else if (field === 5) point.sum = double(reader, type);
    else if (field === 12) point.min = double(reader, type);
    else if (field === 13) point.max = double(reader, type);
    else commonField(reader, field, exponentialHistogramFields, point);
  }
  return point;
}

function summaryPoint(reader: ProtobufReader): SummaryPoint {
  const point: PointInReading & SummaryPoint = {
    kind: "summary",
    attributes: [],
    time: undefined,
    flags: 0,
    count: 0,
    sum: 0,
    quantiles: [],
  };
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field === 4) point.count = fixed64(reader, type);
    else if (field === 5) point.sum = double(reader, type);
    else if (field === 6) point.quantiles.push(valueAtQuantile(reader));
    else commonField(reader, field, summaryFields, point);
  }
  return point;
}

/** The ValueAtQuantile message at the reader. */
function valueAtQuantile(reader: ProtobufReader): SummaryPoint["quantiles"][number] {
  const outerEnd = enter(reader);
  let quantile = 0;
  let value = 0;
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field === 1) quantile = double(reader, type);
    else if (field === 2) value = double(reader, type);
    else reader.skip(type);
  }
  reader.leave(outerEnd);
  return { quantile, value };
}
