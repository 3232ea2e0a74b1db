import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type DatumRow, seriesLabels } from "../vocabulary/datum";
import { joinedBlocks, rowBlock } from "../vocabulary/row-block";
import { recentDataKept } from "./kept-entries";
import {
  type MinuteCount,
  minuteOf,
  minutesCounted,
  RecentData,
  recentBlocksAsBytes,
  recentDataSchema,
} from "./recent-data";

function withRecentData<T>(metric: string, work: (recent: RecentData) => T): Promise<T> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) => work(new RecentData(state.storage.sql)));
}

const rows = (from: number, to: number): DatumRow[] =>
  Array.from({ length: to - from + 1 }, (_, index) => [`d${from + index}`, from + index, from + index, "vm"]);

const minute = 60_000;

/** `data` accepted in the minute of `at`. */
const counted = (data: number, at: number): MinuteCount[] => [[minuteOf(at), data]];

describe("RecentData", () => {
  it("keeps the latest data across batches, up to its limit, newest first", async () => {
    const latest = await withRecentData("recent.capped", (recent) => {
      recent.record(rows(1, 600), counted(600, 0), 0);
      recent.record(rows(601, 1_200), counted(600, 0), 0);
      return recent.latest(recentDataKept);
    });
    expect(latest).toHaveLength(recentDataKept);
    expect(latest[0]?.[0]).toBe("d1200");
    expect(latest.at(-1)?.[0]).toBe("d201");
  });

  it("keeps the latest data of many small batches, and no block that holds none of them", async () => {
    const { latest, blocks } = await runInDurableObject(env.METRIC.getByName("recent.small"), (_, state) => {
      const recent = new RecentData(state.storage.sql);
      for (let batch = 0; batch < 700; batch++) recent.record(rows(2 * batch + 1, 2 * batch + 2), counted(2, 0), 0);
      const count = state.storage.sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM recent_block").one();
      return { latest: recent.latest(recentDataKept), blocks: count.count };
    });
    expect(latest.map(([id]) => id)).toEqual(
      rows(401, 1_400)
        .map(([id]) => id)
        .reverse(),
    );
    expect(blocks).toBe(recentDataKept / 2);
  });

  it("records blocks handed over as they were kept, only those holding some of the latest data, counting every datum", async () => {
    const block = (from: number, to: number) => rowBlock(rows(from, to));
    // The last block brings d1650 again, as a batch consumed again would.
    const handedOver = [block(1, 600), block(601, 1_600), block(1_601, 1_700), block(1_650, 1_650)];
    const { latest, stored, total } = await runInDurableObject(env.METRIC.getByName("recent.blocks"), (_, state) => {
      const recent = new RecentData(state.storage.sql);
      recent.recordBlocks(joinedBlocks(handedOver), counted(1_701, 0), 0);
      const { sql } = state.storage;
      const bytes = sql.exec<{ bytes: number }>("SELECT length(blocks) AS bytes FROM recent_block").toArray();
      return { latest: recent.latest(recentDataKept), stored: bytes.map((row) => row.bytes), total: recent.total() };
    });
    expect(latest[0]?.[0]).toBe("d1650");
    expect(latest.slice(1, 3).map(([id]) => id)).toEqual(["d1700", "d1699"]);
    expect(new Set(latest.map(([id]) => id)).size).toBe(recentDataKept);
    expect(latest.at(-1)?.[0]).toBe("d701");
    // One stored row: the blocks from the second on, as they came.
    expect(stored).toEqual([joinedBlocks(handedOver.slice(1)).length]);
    expect(total).toBe(1_701);
  });

  it("keeps a datum once when its batch is consumed again", async () => {
    const latest = await withRecentData("recent.again", (recent) => {
      recent.record(rows(1, 3), counted(3, 0), 0);
      recent.record(rows(2, 3), counted(2, 0), 0);
      return recent.latest(10);
    });
    expect(latest.map(([id]) => id)).toEqual(["d3", "d2", "d1"]);
  });

  it("keeps an agent's data without their labels, which the recent data do not show", async () => {
    const labels = seriesLabels([["host", "vm1"]], ["cpu", "usage", "float"]);
    const latest = await withRecentData("recent.labelled", (recent) => {
      recent.record(
        [
          ["a", 1, -0, "vm1", labels],
          ["b", 2, 3, "vm2"],
        ],
        counted(2, 0),
        0,
      );
      return recent.latest(10);
    });
    expect(latest).toEqual([
      ["b", 2, 3, "vm2"],
      ["a", 1, -0, "vm1"],
    ]);
    expect(Object.is(latest[1]![2], -0)).toBe(true);
  });

  it("counts data per minute for the last minutes, and in all", async () => {
    const { perMinute, total } = await withRecentData("recent.rate", (recent) => {
      recent.record(rows(1, 1), counted(5, 0), 0);
      recent.record(rows(2, 2), counted(7, 3 * minute), 3 * minute);
      recent.record(rows(3, 3), counted(2, 3 * minute + 1), 3 * minute + 1);
      recent.record(rows(4, 4), counted(4, 12 * minute), 12 * minute);
      return { perMinute: recent.perMinute(12 * minute), total: recent.total() };
    });
    expect(perMinute).toHaveLength(minutesCounted);
    // Minutes 3 … 12: minute 0 has left the window.
    expect(perMinute).toEqual([9, 0, 0, 0, 0, 0, 0, 0, 0, 4]);
    expect(total).toBe(18);
  });

  it("counts data brought later in the minutes they were accepted, and those of a minute past the window in all only", async () => {
    const { perMinute, total } = await withRecentData("recent.later", (recent) => {
      recent.record(rows(1, 2), [...counted(3, 0), ...counted(4, 9 * minute), ...counted(5, 10 * minute)], 10 * minute);
      recent.record([], counted(1, 10 * minute), 10 * minute);
      return { perMinute: recent.perMinute(10 * minute), total: recent.total() };
    });
    expect(perMinute).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 4, 6]);
    expect(total).toBe(13);
  });

  it("keeps the blocks of JSON text an object had before row blocks, rewritten as row blocks", async () => {
    const { latest, blocks } = await runInDurableObject(env.METRIC.getByName("recent.json-blocks"), (_, state) => {
      const { sql } = state.storage;
      sql.exec("DROP TABLE recent_block; DROP TABLE accepted_per_minute; DROP TABLE accepted_total");
      sql.exec(recentDataSchema);
      sql.exec("INSERT INTO recent_block (rows, upto) VALUES (?, 2)", '[["a",1,-0,"vm1"],["b",2,"INF","vm2"]]');
      sql.exec("INSERT INTO recent_block (rows, upto) VALUES (?, 3)", JSON.stringify([["c", 3, 0.5, "vm\u00e9"]]));
      recentBlocksAsBytes(sql);
      const recent = new RecentData(sql);
      recent.record(rows(4, 4), counted(1, 0), 0);
      const count = sql.exec<{ count: number }>("SELECT COUNT(*) AS count FROM recent_block").one();
      return { latest: recent.latest(10), blocks: count.count };
    });
    expect(latest).toEqual([
      ["d4", 4, 4, "vm"],
      ["c", 3, 0.5, "vm\u00e9"],
      ["b", 2, "INF", "vm2"],
      ["a", 1, -0, "vm1"],
    ]);
    expect(Object.is(latest[3]![2], -0)).toBe(true);
    expect(blocks).toBe(3);
  });
});
