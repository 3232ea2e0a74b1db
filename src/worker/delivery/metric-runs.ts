import type { DatumRow } from "../vocabulary/datum";
import type { MetricDatum, MetricRun } from "../vocabulary/delivery";

/** How many data a payload's runs hold. */
export function runsData(runs: readonly MetricRun[]): number {
  let data = 0;
  for (const [, rows] of runs) data += rows.length;
  return data;
}

/** Runs in slices of at most `maxData` data, a run cut where a slice fills; a run that fits stays the same array. */
export function slicesOfRuns(runs: readonly MetricRun[], maxData: number): MetricRun[][] {
  const slices: MetricRun[][] = [[]];
  let room = maxData;
  for (const [metric, rows] of runs) {
    for (let start = 0; start < rows.length; ) {
      if (room === 0) {
        slices.push([]);
        room = maxData;
      }
      const taken = start === 0 && rows.length <= room ? rows : rows.slice(start, start + room);
      slices.at(-1)!.push([metric, taken]);
      start += taken.length;
      room -= taken.length;
    }
  }
  return slices;
}

/** Runs in two halves of (nearly) as many data each, the first half first. */
export function halvesOfRuns(runs: readonly MetricRun[]): [MetricRun[], MetricRun[]] {
  const [first = [], second = []] = slicesOfRuns(runs, Math.ceil(runsData(runs) / 2));
  return [first, second];
}

/** Consecutive data of one metric make one run. */
export function runsOfMetricData(items: readonly MetricDatum[]): MetricRun[] {
  const runs: [string, DatumRow[]][] = [];
  for (const [metric, row] of items) {
    const last = runs.at(-1);
    if (last?.[0] === metric) last[1].push(row);
    else runs.push([metric, [row]]);
  }
  return runs;
}

/** A payload's runs as the items of a selector observer's backlog. */
export function metricDataOfRuns(runs: readonly MetricRun[]): MetricDatum[] {
  return runs.flatMap(([metric, rows]) => rows.map((row): MetricDatum => [metric, row]));
}

/**
 * The chains of upstream services (`tower-edge-via`) that a batch's rows came by, the rows of one
 * message sharing its one array. Rows that came by none (most) are not in it.
 */
export type RowChains = ReadonlyMap<DatumRow, readonly string[]>;

/**
 * The upstream services the runs' data came through: the union of their rows' chains, each id
 * once, in the order first seen.
 */
export function viaOfRuns(runs: readonly MetricRun[], chains: RowChains): string[] {
  if (chains.size === 0) return [];
  const ids = new Set<string>();
  let last: readonly string[] | undefined;
  for (const [, rows] of runs) {
    for (const row of rows) {
      const chain = chains.get(row);
      // Rows of one message come together and share its chain, which is added once.
      if (chain === undefined || chain === last) continue;
      last = chain;
      for (const id of chain) ids.add(id);
    }
  }
  return [...ids];
}
