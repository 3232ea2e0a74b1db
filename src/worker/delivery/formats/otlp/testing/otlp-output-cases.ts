/*
 * Test support: random payloads (runs of rows as queue messages carry them) and observers' label
 * changes, what an OTLP request written of them must hold and how it is spelled in JSON, stated
 * independently of the writers, and what the intake's readers read back of one, in a form to compare.
 */
import fc from "fast-check";
import type { OtlpMetricsResult } from "../../../../intake/otlp/metrics-mapping";
import type { DatumRow, Label, SeriesLabels } from "../../../../vocabulary/datum";
import { seriesLabels } from "../../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../../vocabulary/delivery";
import { byLabelName } from "../../label-changes";
import type { OtlpMetricsRequest } from "../otlp-metrics-request";

export const arrivalMs = 1_800_000_000_000;

/** The last millisecond a fixed64 of nanoseconds holds. */
export const lastMillisecond = 18_446_744_073_709;

/** Where milliseconds times a million pass 2^53, and doubles would lose nanoseconds. */
export const past2To53Nanoseconds = 9_007_199_255;

/** Times around every bound: the epoch, 2^53 nanoseconds, the last millisecond, and beyond either end. */
const boundaryTimes = [
  0,
  1,
  past2To53Nanoseconds - 1,
  past2To53Nanoseconds,
  past2To53Nanoseconds + 1,
  lastMillisecond - 1,
  lastMillisecond,
  lastMillisecond + 1,
  -1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];

export const timeArbitrary = fc.oneof(
  fc.constantFrom(...boundaryTimes),
  fc.integer({ min: 0, max: lastMillisecond }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
);

/** A row's value: finite doubles as numbers, the others in their xsd:double spelling. */
const valueArbitrary: fc.Arbitrary<DatumRow[2]> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom("NaN" as const, "INF" as const, "-INF" as const, 0, -0),
);

const textArbitrary = fc.string({ unit: "binary", maxLength: 8 });

/** Names that also collide with what the writer adds (`resource`) and with an observer's changes (`a`, `b`). */
const nameArbitrary = fc.oneof(
  fc.constantFrom("a", "b", "resource", "service.instance.id", "host.name"),
  textArbitrary,
);

/** Labels as the intake gives them: sorted by name, each name once, perhaps one of them a resource attribute. */
const seriesLabelsArbitrary: fc.Arbitrary<SeriesLabels> = fc
  .uniqueArray(fc.tuple(nameArbitrary, textArbitrary), { selector: ([name]) => name, maxLength: 4 })
  .chain((pairs) => {
    const sorted = [...pairs].sort(byLabelName);
    if (sorted.length === 0) return fc.constant(seriesLabels(sorted));
    return fc
      .option(fc.constantFrom(...sorted.map(([name]) => name)), { nil: undefined })
      .map((resourceAttribute) => seriesLabels(sorted, undefined, resourceAttribute));
  });

/** Payloads whose rows share a few label sets and resource ids, as a series' rows do. */
export const runsArbitrary: fc.Arbitrary<MetricRun[]> = fc
  .record({
    labelSets: fc.array(seriesLabelsArbitrary, { minLength: 1, maxLength: 4 }),
    resourceIds: fc.array(textArbitrary, { minLength: 1, maxLength: 3 }),
  })
  .chain(({ labelSets, resourceIds }) => {
    const row = fc
      .record({
        id: fc.string({ maxLength: 4 }),
        time: timeArbitrary,
        value: valueArbitrary,
        resourceId: fc.constantFrom(...resourceIds),
        labels: fc.option(fc.constantFrom(...labelSets), { nil: undefined }),
      })
      .map(
        ({ id, time, value, resourceId, labels }): DatumRow =>
          labels === undefined ? [id, time, value, resourceId] : [id, time, value, resourceId, labels],
      );
    const run = fc.tuple(fc.constantFrom("cpu", "mem", "disk.used"), fc.array(row, { maxLength: 8 }));
    return fc.array(run, { maxLength: 4 });
  });

const changeNameArbitrary = fc.constantFrom("a", "b", "c", "resource", "host_name");

export const labelChangesArbitrary: fc.Arbitrary<LabelChanges | undefined> = fc.option(
  fc.record(
    {
      add: fc.dictionary(changeNameArbitrary, textArbitrary, { maxKeys: 3 }),
      drop: fc.uniqueArray(changeNameArbitrary, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

/** A point as read back, in one line: compared as text, NaN equals NaN and -0 differs from 0. */
export function pointText(
  metric: string,
  attributes: readonly Label[],
  resource: readonly Label[],
  timestamp: number,
  value: number,
): string {
  return JSON.stringify([metric, attributes, resource, timestamp, Object.is(value, -0) ? "-0" : String(value)]);
}

const rowDouble = (value: DatumRow[2]) =>
  typeof value === "number" ? value : value === "NaN" ? Number.NaN : value === "INF" ? Infinity : -Infinity;

/**
 * What the request of `runs` must hold, as API.md says: each datum whose time a fixed64 of
 * nanoseconds holds, its labels (or `resource` = its resourceId) changed, the resource attribute
 * on the resource, the others on the point; sorted.
 */
export function expectedPoints(runs: readonly MetricRun[], changes: LabelChanges | undefined): string[] {
  const points: string[] = [];
  for (const [metric, rows] of runs) {
    for (const [, timestamp, value, resourceId, labels] of rows) {
      if (timestamp < 0 || timestamp > lastMillisecond) continue;
      const named = new Map(labels === undefined ? [["resource", resourceId]] : labels.pairs);
      for (const [name, added] of Object.entries(changes?.add ?? {})) named.set(name, added);
      for (const name of changes?.drop ?? []) named.delete(name);
      const all = [...named].sort(byLabelName);
      const isResource = ([name]: Label) => name === labels?.resourceAttribute;
      points.push(
        pointText(
          metric,
          all.filter((label) => !isResource(label)),
          all.filter(isResource),
          timestamp,
          rowDouble(value),
        ),
      );
    }
  }
  return points.sort();
}

/** What a reader read of a request the service wrote (one point a series), sorted. */
export function pointsRead(result: OtlpMetricsResult): string[] {
  return result.series
    .flatMap(({ labels, primaryOnly, points }) =>
      points.map(({ metric, timestamp, value }) => pointText(metric, labels, primaryOnly ?? [], timestamp, value)),
    )
    .sort();
}

const keyValues = (labels: readonly Label[]) => labels.map(([key, value]) => ({ key, value: { stringValue: value } }));

const jsonDouble = (value: number) =>
  Number.isNaN(value) ? "NaN" : value === Infinity ? "Infinity" : value === -Infinity ? "-Infinity" : value;

/**
 * The request in the OTLP JSON encoding, transcribed field by field, each message's fields in the
 * order of their numbers (as the test encoder then writes them), empty ones left out.
 */
export function jsonFormOf({ resourceMetrics }: OtlpMetricsRequest): object {
  return {
    resourceMetrics: resourceMetrics.map(({ resource, scope, metrics }) => ({
      ...(resource.length > 0 && { resource: { attributes: keyValues(resource) } }),
      scopeMetrics: [
        {
          scope: { name: scope },
          metrics: metrics.map(({ name, dataPoints }) => ({
            name,
            gauge: {
              dataPoints: dataPoints.map(({ attributes, timeUnixNano, asDouble }) => ({
                timeUnixNano: String(timeUnixNano),
                asDouble: jsonDouble(asDouble),
                ...(attributes.length > 0 && { attributes: keyValues(attributes) }),
              })),
            },
          })),
        },
      ],
    })),
  };
}
