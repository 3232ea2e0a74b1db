/*
 * Test support: rows as queue messages carry them, and WriteRequests as a receiver reads them back
 * (the intake's reader), in a form to compare.
 */
import { expect } from "vitest";
import { readWriteRequest } from "../../../../intake/remote-write/write-request";
import { type DatumRow, type Label, seriesLabels } from "../../../../vocabulary/datum";
import { byLabelName } from "../../label-changes";

/** A series as the tests state it and read it back: its labels and its samples. */
export interface SampledSeries {
  labels: Label[];
  samples: { value: number; timestamp: number }[];
}

/** More samples than any test sends: the reader's limit, never reached. */
const anyNumberOfSamples = 10_000_000;

/** A row of a datum with labels (these pairs, sorted by name as intake sorts them), or without any. */
export function row(timestamp: number, value: DatumRow[2], resourceId: string, pairs?: readonly Label[]): DatumRow {
  return pairs === undefined
    ? [`d${timestamp}`, timestamp, value, resourceId]
    : [`d${timestamp}`, timestamp, value, resourceId, seriesLabels(pairs)];
}

/** A WriteRequest (not compressed) as our reader reads it: each series' labels, `__name__` among them, sorted by name, and its samples. */
export function readBack(request: Uint8Array): SampledSeries[] {
  const result = readWriteRequest(request, anyNumberOfSamples);
  expect(result.refused).toEqual([]);
  expect(result.staleMarkers).toBe(0);
  return result.series.map(({ labels, points }) => ({
    labels: [["__name__", points[0]!.metric] as Label, ...labels].sort(byLabelName),
    samples: points.map(({ value, timestamp }) => ({ value, timestamp })),
  }));
}
