import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recentDataKept } from "../metrics/kept-entries";
import { type MinuteCount, minuteOf, RecentData } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { intakeOfRows, mergeIntakes } from "./leased-intake";

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);
const row = (id: string): DatumRow => [id, 1_000, 1, "vm1"];
const counted = (data: number, at = t0): MinuteCount[] => [[minuteOf(at), data]];

describe("leased intake", () => {
  it("brings of a batch its last rows and how many it consumed in the minute", () => {
    const rows = Array.from({ length: recentDataKept + 2 }, (_, index) => row(`r${index}`));
    expect(intakeOfRows(rows, t0)).toEqual({ latest: rows.slice(2), counts: counted(rows.length) });
  });

  it("merges an earlier and a later intake: later ids hide earlier ones, counts add up by minute", () => {
    const earlier = { latest: [row("a"), row("b")], counts: counted(2) };
    const later = { latest: [row("b"), row("c")], counts: [...counted(1), ...counted(1, t0 + 60_000)] };
    expect(mergeIntakes(earlier, later)).toEqual({
      latest: [row("a"), row("b"), row("c")],
      counts: [...counted(3), ...counted(1, t0 + 60_000)],
    });
  });

  it("shows of several batches merged what recording each batch on its own shows", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Ids from a small pool: batches consumed again, and data sent twice, share them.
        fc.array(fc.array(fc.nat(1_500), { minLength: 1, maxLength: 800 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          run++;
          const rowsOf = (ids: number[]) => ids.map((id) => row(`d${id}`));
          const merged = batches.reduce((intake, ids) => mergeIntakes(intake, intakeOfRows(rowsOf(ids), t0)), {
            latest: [] as DatumRow[],
            counts: [] as MinuteCount[],
          });
          const shown = await runInDurableObject(env.METRIC.getByName(`leased-intake.property-${run}`), (_, state) => {
            const oneByOne = new RecentData(state.storage.sql);
            for (const ids of batches) oneByOne.record(rowsOf(ids).slice(-recentDataKept), counted(ids.length), t0);
            const separately = oneByOne.latest(recentDataKept);
            oneByOne.clear();
            const together = new RecentData(state.storage.sql);
            together.record(merged.latest, merged.counts, t0);
            return { separately, together: together.latest(recentDataKept), total: together.total() };
          });
          // Both show the newest data first, each as far as it kept them.
          const length = Math.min(shown.separately.length, shown.together.length);
          expect(shown.together.slice(0, length)).toEqual(shown.separately.slice(0, length));
          expect(length).toBeGreaterThan(0);
          expect(shown.total).toBe(batches.flat().length);
        },
      ),
      { numRuns: 25 },
    );
  });
});
