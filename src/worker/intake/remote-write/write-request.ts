import { ProtobufReader, wireType } from "../common/protobuf-reader";
import type { LabelledPoints, RefusedPart, SeriesPoint } from "../common/series";

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

class WriteRequestReader {
  private readonly result: RemoteWriteResult = { series: [], refused: [], staleMarkers: 0, points: 0, tooMany: false };
  private seriesCount = 0;
  // The sample last read, kept here rather than in an object per sample.
  private sampleValue = 0;
  private sampleTimestamp = 0;
  private readonly valueBits = new DataView(new ArrayBuffer(8));

  constructor(
    private readonly body: Uint8Array,
    private readonly maxPoints: number,
  ) {}

  read(): RemoteWriteResult {
    const request = new ProtobufReader(this.body);
    while (request.hasMore() && !this.result.tooMany) {
      const { field, type } = request.tag();
      if (field === requestField.timeseries || field === requestField.metadata) {
        request.expect(type, wireType.lengthDelimited);
      }
      if (field === requestField.timeseries) this.timeSeries(request);
      else request.skip(type);
    }
    return this.result;
  }

  /**
   * A TimeSeries, read twice: its labels first, wherever they are sent, so that its samples become
   * points of a known metric (or are only checked, when the series is refused).
   */
  private timeSeries(request: ProtobufReader): void {
    const origin = this.seriesCount++;
    const labelsPass = request.message();
    const samplesPass = new ProtobufReader(this.body, labelsPass.offset, request.offset);
    const { labels, metricName, metricNames, histograms } = readSeriesLabels(labelsPass);
    const problem = labelsProblem(labels, metricName, metricNames);
    if (problem !== undefined) {
      this.result.refused.push({ origin, message: problem });
      this.samples(samplesPass, undefined);
      return;
    }
    if (histograms > 0) {
      this.result.refused.push({
        origin,
        message: `native histograms are not supported; its ${histograms} histogram samples were skipped (send classic histograms instead)`,
      });
    }
    const points = this.samples(samplesPass, metricName);
    if (points.length === 0) return;
    this.result.series.push({ labels, origin, points });
    this.result.points += points.length;
  }

  /** The series' points of `metric`, stale markers counted and skipped; without a metric, only checked. */
  private samples(series: ProtobufReader, metric: string | undefined): SeriesPoint[] {
    const points: SeriesPoint[] = [];
    while (series.hasMore()) {
      const { field, type } = series.tag();
      if (field !== seriesField.samples) {
        series.skip(type);
        continue;
      }
      if (!this.sample(series.message())) {
        this.result.staleMarkers++;
        continue;
      }
      if (metric === undefined) continue;
      if (this.result.points + points.length === this.maxPoints) {
        this.result.tooMany = true;
        break;
      }
      points.push({ metric, value: this.sampleValue, timestamp: this.sampleTimestamp });
    }
    return points;
  }

  /** Reads a Sample into sampleValue and sampleTimestamp; false for a stale marker. */
  private sample(sample: ProtobufReader): boolean {
    let low = 0;
    let high = 0;
    let timestamp = 0;
    while (sample.hasMore()) {
      const { field, type } = sample.tag();
      if (field === sampleField.value) {
        sample.expect(type, wireType.fixed64);
        [low, high] = sample.fixed64Halves();
      } else if (field === sampleField.timestamp) {
        sample.expect(type, wireType.varint);
        timestamp = sample.int64();
      } else sample.skip(type);
    }
    // The bits, not Number.isNaN: every other NaN is a value like any other.
    if (low === staleMarkerLow && high === staleMarkerHigh) return false;
    this.valueBits.setUint32(0, low, true);
    this.valueBits.setUint32(4, high, true);
    this.sampleValue = this.valueBits.getFloat64(0, true);
    this.sampleTimestamp = timestamp;
    return true;
  }
}

/**
 * The series' labels but the metric name, its (first) metric name, how many metric name labels it
 * has, and how many native histogram samples it holds.
 */
function readSeriesLabels(series: ProtobufReader) {
  const labels: [string, string][] = [];
  let metricName = "";
  let metricNames = 0;
  let histograms = 0;
  while (series.hasMore()) {
    const { field, type } = series.tag();
    // Every field of a TimeSeries is a repeated message.
    if (field >= seriesField.labels && field <= seriesField.histograms) series.expect(type, wireType.lengthDelimited);
    if (field === seriesField.labels) {
      const label = readLabel(series.message());
      if (label[0] !== metricNameLabel) labels.push(label);
      else if (metricNames++ === 0) metricName = label[1];
    } else {
      if (field === seriesField.histograms) histograms++;
      series.skip(type);
    }
  }
  return { labels, metricName, metricNames, histograms };
}

function readLabel(label: ProtobufReader): [string, string] {
  let name = "";
  let value = "";
  while (label.hasMore()) {
    const { field, type } = label.tag();
    if (field === labelField.name || field === labelField.value) label.expect(type, wireType.lengthDelimited);
    if (field === labelField.name) name = label.string();
    else if (field === labelField.value) value = label.string();
    else label.skip(type);
  }
  return [name, value];
}

/** Why Prometheus itself would refuse these labels: no metric name, an empty or repeated name. */
function labelsProblem(
  labels: readonly (readonly [string, string])[],
  metricName: string,
  metricNames: number,
): string | undefined {
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
