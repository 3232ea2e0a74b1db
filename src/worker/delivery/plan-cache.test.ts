import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { recentDataKept } from "../metrics/kept-entries";
import { type MinuteCount, minuteOf, RecentData } from "../metrics/recent-data";
import type { DatumRow } from "../vocabulary/datum";
import { PlanCache } from "./plan-cache";

const t0 = Date.UTC(2031, 0, 2, 3, 4, 5);
const entry = { id: "cached-observer", match: ["up"] };
const row = (id: string): DatumRow => [id, 1_000, 1, "vm1"];
const counted = (data: number): MinuteCount[] => [[minuteOf(t0), data]];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(t0);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("PlanCache", () => {
  it("uses a leased plan for a batch received before the lease ends, and forgets it after", () => {
    const cache = new PlanCache();
    expect(cache.leasedSelectors("m", 0)).toBeUndefined();
    cache.keep("m", [entry], 1_000, 2_000);
    expect(cache.leasedSelectors("m", 2_999)).toEqual([entry]);
    expect(cache.leasedSelectors("m", 3_000)).toBeUndefined();
    expect(cache.leasedSelectors("m", 2_999)).toBeUndefined();
  });

  it("keeps what was consumed under a lease until it is taken, due once the lease ended", () => {
    const cache = new PlanCache();
    cache.keep("m", [], 0, 2_000);
    cache.tally("m", [row("a"), row("b")]);
    cache.tally("m", [row("c")]);
    expect(cache.due(1_999)).toEqual([]);
    expect(cache.due(2_000)).toEqual(["m"]);

    const { pending, withBatch } = cache.take("m", [row("d")]);
    expect(pending).toEqual({ latest: [row("a"), row("b"), row("c")], counts: counted(3) });
    expect(withBatch).toEqual({ latest: [row("a"), row("b"), row("c"), row("d")], counts: counted(4) });
    expect(cache.due(2_000)).toEqual([]);
    expect(cache.take("m").pending).toEqual({ latest: [], counts: [] });
  });

  it("gives back what could not be told, before what was consumed since, due at once when nothing was", () => {
    const cache = new PlanCache();
    cache.keep("m", [], 0, 2_000);
    cache.tally("m", [row("a")]);
    const first = cache.take("m").pending;
    cache.tally("m", [row("b")]);
    cache.restore("m", first);
    expect(cache.take("m").pending).toEqual({ latest: [row("a"), row("b")], counts: counted(2) });

    cache.restore("n", first);
    expect(cache.due(0)).toEqual(["n"]);
  });

  it("drops a selector observer that is gone from every leased plan", () => {
    const cache = new PlanCache();
    const other = { id: "other-observer", match: ["down"] };
    cache.keep("m", [entry, other], 0, 2_000);
    cache.keep("n", [entry], 0, 2_000);
    cache.forgetSelector(entry.id);
    expect(cache.leasedSelectors("m", 1)).toEqual([other]);
    expect(cache.leasedSelectors("n", 1)).toEqual([]);
  });

  it("shows of data consumed over several batches under a lease what recording each batch on its own shows", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Ids from a small pool: batches consumed again, and data sent twice, share them.
        fc.array(fc.array(fc.nat(1_500), { minLength: 1, maxLength: 800 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          run++;
          const rowsOf = (ids: number[]) => ids.map((id) => row(`d${id}`));
          const cache = new PlanCache();
          cache.keep("m", [], 0, 2_000);
          for (const ids of batches) cache.tally("m", rowsOf(ids));
          const { pending } = cache.take("m");
          const shown = await runInDurableObject(env.METRIC.getByName(`plan-cache.property-${run}`), (_, state) => {
            const oneByOne = new RecentData(state.storage.sql);
            for (const ids of batches) oneByOne.record(rowsOf(ids).slice(-recentDataKept), counted(ids.length), t0);
            const separately = oneByOne.latest(recentDataKept);
            oneByOne.clear();
            const together = new RecentData(state.storage.sql);
            together.record(pending.latest, pending.counts, t0);
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
