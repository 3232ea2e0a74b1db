import type { Label, SeriesLabels } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { rowDouble } from "../../../vocabulary/row-value";
import { type LabelChanger, labelChanger } from "../label-changes";

/*
 * An OTLP ExportMetricsServiceRequest (opentelemetry-proto, collector/metrics/v1) as the OTLP and
 * OTLP/JSON formats write it: every datum a gauge's data point, a double at its time. Both
 * encodings are written from this model (otlp-protobuf-writer.ts, otlp-json-writer.ts).
 */

export interface OtlpMetricsRequest {
  readonly resourceMetrics: readonly OtlpResourceMetrics[];
}

/** A ResourceMetrics with its one ScopeMetrics. */
export interface OtlpResourceMetrics {
  /** The resource's attributes: the primary label that came from an OTLP resource attribute, or none. */
  readonly resource: readonly Label[];
  /** The InstrumentationScope's name. */
  readonly scope: string;
  /** Metrics whose data are a Gauge, one per name. */
  readonly metrics: readonly OtlpGauge[];
}

export interface OtlpGauge {
  readonly name: string;
  readonly dataPoints: readonly OtlpNumberPoint[];
}

export interface OtlpNumberPoint {
  /** String attributes sorted by key, one array shared by the points of a label set. */
  readonly attributes: readonly Label[];
  /** Nanoseconds since the epoch, exactly. */
  readonly timeUnixNano: bigint;
  readonly asDouble: number;
}

/** The scope of every metric the service writes. */
export const otlpScopeName = "tower-edge";

/** The data-point attribute that names the resource of a datum without labels. */
const resourceIdAttribute = "resource";

/** The latest millisecond whose nanoseconds fit time_unix_nano, a fixed64 (in the year 2554). */
const maxTimeMs = Number((2n ** 64n - 1n) / 1_000_000n);

/**
 * A datum's time as time_unix_nano, or undefined for a time it cannot hold (before the epoch,
 * after `maxTimeMs`). 0 means "no time" in OTLP, and a reader would give the datum its arrival
 * time: the epoch itself is written as its first nanosecond, read back as the same millisecond.
 */
export function timeUnixNano(timestampMs: number): bigint | undefined {
  if (!Number.isInteger(timestampMs) || timestampMs < 0 || timestampMs > maxTimeMs) return undefined;
  // BigInt: milliseconds times a million pass 2^53, where doubles lose digits.
  return timestampMs === 0 ? 1n : BigInt(timestampMs) * 1_000_000n;
}

/** Where a label set's labels go: the resource attribute to the resource, the others to the data points. */
interface Placement {
  /** The resource's attributes, and the text that tells apart resources with different ones. */
  resource: readonly Label[];
  resourceKey: string;
  attributes: readonly Label[];
}

/** A datum's labels (its resourceId as `resource` when it has none), changed, and placed. */
function placementOf(labels: SeriesLabels | undefined, resourceId: string, change: LabelChanger): Placement {
  const pairs = change(labels === undefined ? [[resourceIdAttribute, resourceId]] : labels.pairs);
  const resourceAttribute = labels?.resourceAttribute;
  const at = resourceAttribute === undefined ? -1 : pairs.findIndex(([name]) => name === resourceAttribute);
  if (at < 0) return { resource: [], resourceKey: "", attributes: pairs };
  const resource = [pairs[at]!];
  return { resource, resourceKey: JSON.stringify(resource), attributes: pairs.toSpliced(at, 1) };
}

interface ResourceGroup {
  resource: readonly Label[];
  pointsByMetric: Map<string, OtlpNumberPoint[]>;
}

/**
 * The request carrying `runs` to an observer with `changes`: a ResourceMetrics per resource
 * attribute (and one without), a Gauge per metric name in each, in the order the data come. Data
 * whose time OTLP cannot hold are left out; without any datum left, the request has no ResourceMetrics.
 */
export function otlpMetricsRequest(runs: readonly MetricRun[], changes?: LabelChanges): OtlpMetricsRequest {
  const change = labelChanger(changes);
  // Per label set, shared by a series' rows, or per resourceId of data without labels.
  const placements = new Map<SeriesLabels | string, Placement>();
  const groups = new Map<string, ResourceGroup>();
  for (const [metric, rows] of runs) {
    for (const [, timestampMs, value, resourceId, labels] of rows) {
      const time = timeUnixNano(timestampMs);
      if (time === undefined) continue;
      const placementKey = labels ?? resourceId;
      let placement = placements.get(placementKey);
      if (placement === undefined) {
        placement = placementOf(labels, resourceId, change);
        placements.set(placementKey, placement);
      }
      let group = groups.get(placement.resourceKey);
      if (group === undefined) {
        group = { resource: placement.resource, pointsByMetric: new Map() };
        groups.set(placement.resourceKey, group);
      }
      const point = { attributes: placement.attributes, timeUnixNano: time, asDouble: rowDouble(value) };
      const points = group.pointsByMetric.get(metric);
      if (points === undefined) group.pointsByMetric.set(metric, [point]);
      else points.push(point);
    }
  }
  return {
    resourceMetrics: [...groups.values()].map(({ resource, pointsByMetric }) => ({
      resource,
      scope: otlpScopeName,
      metrics: [...pointsByMetric].map(([name, dataPoints]) => ({ name, dataPoints })),
    })),
  };
}
