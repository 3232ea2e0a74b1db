import { recentDataKept } from "../metrics/kept-entries";
import type { BatchIntake } from "../metrics/metric-object";
import { minuteOf, summedCounts } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { joinedBlocks, rowBlock } from "../vocabulary/row-block";

/*
 * Data consumed under a plan lease (see src/worker/delivery/plan-cache.ts), which the metric's
 * object has yet to be told: the consumer hands them to the metric's summary shard with its write
 * of the batch, and the shard hands them to the object once the lease ended (see pending-intake.ts).
 */

/** A batch's intake of one metric under a lease, and when that lease ends (ms since the epoch). */
export interface LeasedIntake extends BatchIntake {
  metric: string;
  leaseEndsAt: number;
}

/** What a batch's rows of a metric, consumed at `now`, bring its object. */
export function intakeOfRows(rows: readonly DatumRow[], now: number): BatchIntake {
  // The rows themselves when they are few enough: nothing changes a batch's rows once grouped.
  const latest = rows.length > recentDataKept ? rows.slice(-recentDataKept) : (rows as DatumRow[]);
  return { latest, counts: [[minuteOf(now), rows.length]] };
}

/**
 * `earlier` then `later` as one intake: the last `recentDataKept` rows, where a row of `later`
 * hides the same datum id in `earlier` (a batch consumed again), and the counts added up by minute.
 */
export function mergeIntakes(earlier: BatchIntake, later: BatchIntake): BatchIntake {
  const kept = later.latest.slice(-recentDataKept);
  const ids = new Set(kept.map(([id]) => id));
  const latest = [...earlier.latest.filter(([id]) => !ids.has(id)), ...kept].slice(-recentDataKept);
  return { latest, counts: summedCounts([...earlier.counts, ...later.counts]) };
}

/**
 * A batch's intakes for one summary shard, which the shard stores with one statement: `blocks`, the
 * row blocks of their latest rows (see row-block.ts) one after the other, and `index`, a JSON
 * array of [metric, its block's offset in `blocks`, its block's bytes, its rows, its counts, its lease's end].
 */
export interface PackedIntakes {
  index: string;
  blocks: Uint8Array;
}

export function packLeasedIntakes(intakes: readonly LeasedIntake[]): PackedIntakes {
  const blocks = intakes.map(({ latest }) => rowBlock(latest));
  let offset = 0;
  const index = intakes.map(({ metric, latest, counts, leaseEndsAt }, place) => {
    const { length } = blocks[place]!;
    offset += length;
    return [metric, offset - length, length, latest.length, counts, leaseEndsAt];
  });
  return { index: JSON.stringify(index), blocks: joinedBlocks(blocks) };
}
