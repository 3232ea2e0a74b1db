import type { Label } from "../../vocabulary/datum";
import { BytesTable } from "../common/bytes-table";
import { ProtobufReader, wireType } from "../common/protobuf-reader";
import type { LabelledPoints, RefusedPart, SeriesPoint } from "../common/series";
import { tabledRun } from "../common/tabled-run";

/*
 * Prometheus remote write 1.0 (prompb's remote.proto and types.proto): WriteRequest holds
 * TimeSeries (1) and MetricMetadata (3); a TimeSeries holds Labels (1), Samples (2), Exemplars (3)
 * and native Histograms (4); a Label is a name (1) and a value (2); a Sample a double value (1) and
 * an int64 timestamp in milliseconds (2). Metadata and exemplars are no data and are skipped.
 */
const requestField = { timeseries: 1, metadata: 3 } as const;
const seriesField = { labels: 1, samples: 2, exemplars: 3, histograms: 4 } as const;
const labelField = { name: 1, value: 2 } as const;
const sampleField = { value: 1, timestamp: 2 } as const;

const metricNameLabel = "__name__";

/** Prometheus's stale marker: the NaN with these bits, which says the series ended rather than gave a value. */
const staleMarkerHigh = 0x7ff00000;
const staleMarkerLow = 0x00000002;

export interface RemoteWriteResult {
  /** The series that have a valid label set and at least one point, origin their index in the request. */
  series: LabelledPoints[];
  refused: RefusedPart[];
  staleMarkers: number;
  /** The points of `series`. */
  points: number;
  /** The request holds more than `maxPoints` points; reading stopped there. */
  tooMany: boolean;
}

/**
 * The series of a remote write WriteRequest (already decompressed). ProtobufError when the body is
 * not one (a truncated field, a wire type the schema does not have, a string not UTF-8).
 */
export function readWriteRequest(body: Uint8Array, maxPoints: number): RemoteWriteResult {
  return new WriteRequestReader(body, maxPoints).read();
}

/** What a series' labels say, the same for every series sent with the same label bytes. */
interface SeriesLabels {
  /** The labels but the metric name, in the order sent. */
  labels: readonly Label[];
  /** The (first) metric name. */
  metricName: string;
  /** Why the series is refused, if it is. */
  problem: string | undefined;
}

/**
 * Label sets found again by their bytes: a sender sends the same series at every scrape, each
 * time with the same label bytes, which then need no decoding, no new labels and no check.
 */
const labelSets = new BytesTable<SeriesLabels>(4_096, 1_024);

/** One reader over the whole body, what it read last kept in its fields rather than in an object per series or sample. */
class WriteRequestReader {
  private readonly result: RemoteWriteResult = { series: [], refused: [], staleMarkers: 0, points: 0, tooMany: false };
  private readonly reader: ProtobufReader;
  private seriesCount = 0;
  // How many native histogram samples the series last read holds.
  private histograms = 0;
  // The sample last read.
  private sampleValue = 0;
  private sampleTimestamp = 0;
  private readonly valueBits = new DataView(new ArrayBuffer(8));

  constructor(
    body: Uint8Array,
    private readonly maxPoints: number,
  ) {
    this.reader = new ProtobufReader(body);
  }

  read(): RemoteWriteResult {
    const request = this.reader;
    while (request.hasMore() && !this.result.tooMany) {
      const field = request.field();
      const type = request.type;
      if (field === requestField.timeseries || field === requestField.metadata) {
        request.expect(type, wireType.lengthDelimited);
      }
      if (field === requestField.timeseries) this.timeSeries();
      else request.skip(type);
    }
    return this.result;
  }

  /**
   * A TimeSeries, read twice: its labels first, wherever they are sent, so that its samples become
   * points of a known metric (or are only checked, when the series is refused).
   */
  private timeSeries(): void {
    const reader = this.reader;
    const origin = this.seriesCount++;
    const outerEnd = reader.enter();
    const start = reader.offset;
    const end = reader.limit;
    const { labels, metricName, problem } = this.seriesLabels();
    reader.restore(start, end);
    if (problem !== undefined) {
      this.result.refused.push({ origin, message: problem });
      this.samples(undefined);
    } else {
      if (this.histograms > 0) {
        this.result.refused.push({
          origin,
          message: `native histograms are not supported; its ${this.histograms} histogram samples were skipped (send classic histograms instead)`,
        });
      }
      const points = this.samples(metricName);
      if (points !== undefined) {
        this.result.series.push({ labels, origin, points });
        this.result.points += points.length;
      }
    }
    reader.leave(outerEnd);
  }

  /**
   * What the labels of the series the reader is in say, its histogram samples counted meanwhile.
   * Labels sent one after another (as Prometheus sends them) are found in `labelSets` by their
   * bytes, or decoded there and kept.
   */
  private seriesLabels(): SeriesLabels {
    const reader = this.reader;
    const start = reader.offset;
    const end = reader.limit;
    let tabled: SeriesLabels | undefined;
    let labelRuns = 0;
    this.histograms = 0;
    while (reader.hasMore()) {
      const field = reader.field();
      const type = reader.type;
      // Every field of a TimeSeries is a repeated message.
      if (field >= seriesField.labels && field <= seriesField.histograms) reader.expect(type, wireType.lengthDelimited);
      if (field === seriesField.labels) {
        tabled = labelRuns++ === 0 ? tabledRun(reader, field, labelSets, readLabelRun) : undefined;
        // Labels sent apart, or a run that cannot be passed over: decoded one by one, wherever they are.
        if (tabled === undefined) {
          reader.restore(start, end);
          return this.labelsOneByOne();
        }
      } else {
        if (field === seriesField.histograms) this.histograms++;
        reader.skip(type);
      }
    }
    return tabled ?? noLabels;
  }

  /** What the labels of the series the reader is in say, read field by field; its histogram samples counted. */
  private labelsOneByOne(): SeriesLabels {
    const reader = this.reader;
    const labels = new LabelSetReading();
    this.histograms = 0;
    while (reader.hasMore()) {
      const field = reader.field();
      const type = reader.type;
      if (field >= seriesField.labels && field <= seriesField.histograms) reader.expect(type, wireType.lengthDelimited);
      if (field === seriesField.labels) labels.add(readLabel(reader));
      else {
        if (field === seriesField.histograms) this.histograms++;
        reader.skip(type);
      }
    }
    return labels.result();
  }

  /**
   * The series' points of `metric`, stale markers counted and skipped (undefined without any);
   * without a metric, only checked.
   */
  private samples(metric: string | undefined): SeriesPoint[] | undefined {
    const series = this.reader;
    // Made with its first point: most series send one sample, and an empty array grows room for many.
    let points: SeriesPoint[] | undefined;
    while (series.hasMore()) {
      const field = series.field();
      if (field !== seriesField.samples) {
        series.skip(series.type);
        continue;
      }
      if (!this.sample()) {
        this.result.staleMarkers++;
        continue;
      }
      if (metric === undefined) continue;
      if (this.result.points + (points?.length ?? 0) === this.maxPoints) {
        this.result.tooMany = true;
        break;
      }
      const point = { metric, value: this.sampleValue, timestamp: this.sampleTimestamp };
      if (points === undefined) points = [point];
      else points.push(point);
    }
    return points;
  }

  /** Reads a Sample into sampleValue and sampleTimestamp; false for a stale marker. */
  private sample(): boolean {
    const sample = this.reader;
    const outerEnd = sample.enter();
    let low = 0;
    let high = 0;
    let timestamp = 0;
    while (sample.hasMore()) {
      const field = sample.field();
      const type = sample.type;
      if (field === sampleField.value) {
        sample.expect(type, wireType.fixed64);
        const halves = sample.fixed64Halves();
        low = halves[0]!;
        high = halves[1]!;
      } else if (field === sampleField.timestamp) {
        sample.expect(type, wireType.varint);
        timestamp = sample.int64();
      } else sample.skip(type);
    }
    sample.leave(outerEnd);
    // The bits, not Number.isNaN: every other NaN is a value like any other.
    if (low === staleMarkerLow && high === staleMarkerHigh) return false;
    this.valueBits.setUint32(0, low, true);
    this.valueBits.setUint32(4, high, true);
    this.sampleValue = this.valueBits.getFloat64(0, true);
    this.sampleTimestamp = timestamp;
    return true;
  }
}

/** A series' labels as they are read: the metric name apart, counted. */
class LabelSetReading {
  readonly labels: [string, string][] = [];
  private metricName = "";
  private metricNames = 0;

  add(label: [string, string]): void {
    if (label[0] !== metricNameLabel) this.labels.push(label);
    else if (this.metricNames++ === 0) this.metricName = label[1];
  }

  result(): SeriesLabels {
    const { labels, metricName, metricNames } = this;
    return { labels, metricName, problem: labelsProblem(labels, metricName, metricNames) };
  }
}

/** What a run of labels says, the reader at the first one's content: frozen, as every series sent with them shares it. */
function readLabelRun(reader: ProtobufReader): SeriesLabels {
  const labels = new LabelSetReading();
  labels.add(readLabel(reader));
  while (reader.hasMore()) {
    reader.field();
    labels.add(readLabel(reader));
  }
  Object.freeze(labels.labels);
  return Object.freeze(labels.result());
}

/** What a series without labels says. */
const noLabels: SeriesLabels = Object.freeze({
  labels: Object.freeze([]),
  metricName: "",
  problem: labelsProblem([], "", 0),
});

/** The Label message at the reader. */
function readLabel(reader: ProtobufReader): [string, string] {
  const outerEnd = reader.enter();
  let name = "";
  let value = "";
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field === labelField.name || field === labelField.value) reader.expect(type, wireType.lengthDelimited);
    if (field === labelField.name) name = reader.string();
    else if (field === labelField.value) value = reader.string();
    else reader.skip(type);
  }
  reader.leave(outerEnd);
  return [name, value];
}

/** Why Prometheus itself would refuse these labels: no metric name, an empty or repeated name. */
function labelsProblem(labels: readonly Label[], metricName: string, metricNames: number): string | undefined {
  if (metricName === "") return `it has no ${metricNameLabel} label, which names its metric`;
  if (metricNames > 1) return `its label ${metricNameLabel} is given more than once`;
  // Prometheus sends labels sorted by name, which shows there is no repeat without a set.
  let sorted = true;
  for (let index = 0; index < labels.length; index++) {
    const name = labels[index]![0];
    if (name === "") return "it has a label with an empty name";
    if (index > 0 && labels[index - 1]![0] >= name) sorted = false;
  }
  if (sorted) return undefined;
  const seen = new Set<string>();
  for (const [name] of labels) {
    if (seen.has(name)) return `its label ${JSON.stringify(name)} is given more than once`;
    seen.add(name);
  }
  return undefined;
}
