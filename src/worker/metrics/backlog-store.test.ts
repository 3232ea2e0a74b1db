import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type DatumRow, seriesLabels } from "../vocabulary/datum";
import { maxDataPerPayload } from "../vocabulary/delivery";
import { rowsJson } from "../vocabulary/row-json";
import { BacklogStore } from "./backlog-store";

/** Runs `work` on the backlog of a fresh metric object. */
function withBacklog<R>(metric: string, work: (backlog: BacklogStore) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) =>
    work(new BacklogStore(state.storage.sql, rowsJson)),
  );
}

const rows = (prefix: string, count: number): DatumRow[] =>
  Array.from({ length: count }, (_, index) => [`${prefix}${index + 1}`, 1_000 * (index + 1), index, "vm1"]);

const t0 = Date.UTC(2026, 0, 2, 3, 4, 5);

describe("BacklogStore", () => {
  it("keeps each observer's chunks in the order they were appended, until each is removed with what it held", () =>
    withBacklog("backlog-order", (backlog) => {
      expect(backlog.head("o1")).toBeUndefined();
      backlog.append("o1", { webhookId: "msg_a", rows: rows("a", 2), acceptedAt: t0, attempts: 1 });
      backlog.append("o2", { webhookId: "msg_x", rows: rows("x", 1), acceptedAt: t0 + 1, attempts: 0 });
      backlog.append("o1", { webhookId: "msg_b", rows: rows("b", 3), acceptedAt: t0 + 2, attempts: 0 });

      const head = backlog.head("o1")!;
      expect(head).toEqual({
        seq: expect.any(Number),
        webhookId: "msg_a",
        rows: [
          ["a1", 1_000, 0, "vm1"],
          ["a2", 2_000, 1, "vm1"],
        ],
        data: 2,
        acceptedAt: t0,
        attempts: 1,
        via: [],
      });
      expect(backlog.oldestPendingAcceptedAt("o1")).toBe(t0);
      expect(backlog.oldestPendingAcceptedAt("o3")).toBeNull();

      expect(backlog.remove(head.seq)).toBe(2);
      expect(backlog.remove(head.seq)).toBe(0);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_b", data: 3, acceptedAt: t0 + 2 });
      expect(backlog.head("o2")).toMatchObject({ webhookId: "msg_x", data: 1 });
    }));

  it("gives back negative zero with its sign", () =>
    withBacklog("backlog-negative-zero", (backlog) => {
      backlog.append("o1", { webhookId: "msg_z", rows: [["z", 1_000, -0, "vm1"]], acceptedAt: t0, attempts: 1 });
      expect(Object.is(backlog.head("o1")!.rows[0]![2], -0)).toBe(true);
    }));

  it("keeps an agent's labels through joined chunks and a trim", () =>
    withBacklog("backlog-labels", (backlog) => {
      const labels = seriesLabels([["host", "vm1"]], ["cpu", "usage", "integer"]);
      const labelled: DatumRow[] = [
        ["l1", 1_000, -0, "vm1", labels],
        ["l2", 2_000, 2, "vm1", labels],
      ];
      backlog.append("o1", { webhookId: "msg_l", rows: [labelled[0]!], acceptedAt: t0, attempts: 0 });
      backlog.append("o1", { webhookId: "msg_m", rows: [labelled[1]!, ...rows("p", 1)], acceptedAt: t0, attempts: 0 });
      expect(backlog.head("o1")!.rows).toEqual([...labelled, ...rows("p", 1)]);
      backlog.trim("o1", 1);
      expect(backlog.head("o1")!.rows).toEqual([labelled[1], ...rows("p", 1)]);
    }));

  it("keeps each chunk's upstream services, and joins data never sent only to a chunk of the same ones", () =>
    withBacklog("backlog-via", (backlog) => {
      const held = (webhookId: string, prefix: string, via?: string[]) =>
        backlog.append("o1", {
          webhookId,
          rows: rows(prefix, 1),
          acceptedAt: t0,
          attempts: 0,
          ...(via ? { via } : {}),
        });
      held("msg_a", "a", ["edge-1", "edge-2"]);
      held("msg_b", "b", ["edge-1", "edge-2"]);
      held("msg_c", "c", ["edge-2", "edge-1"]);
      held("msg_d", "d");
      held("msg_e", "e", []);
      backlog.append("o1", { webhookId: "msg_f", rows: rows("f", 1), acceptedAt: t0, attempts: 1, via: ["edge-3"] });

      const chunks: [string, number, string[]][] = [];
      for (let chunk = backlog.head("o1"); chunk; chunk = backlog.head("o1")) {
        chunks.push([chunk.webhookId, chunk.data, chunk.via]);
        backlog.remove(chunk.seq);
      }
      expect(chunks).toEqual([
        ["msg_a", 2, ["edge-1", "edge-2"]],
        ["msg_c", 1, ["edge-2", "edge-1"]],
        ["msg_d", 2, []],
        ["msg_f", 1, ["edge-3"]],
      ]);
    }));

  it("reads a chunk written before chunks named their upstream services as one that came by none", () =>
    runInDurableObject(env.METRIC.getByName("backlog-via-before"), (_, state) => {
      state.storage.sql.exec(
        "INSERT INTO backlog (observer_id, webhook_id, rows, data, accepted_at) VALUES ('o1', 'msg_old', ?, 1, ?)",
        rowsJson(rows("o", 1)),
        t0,
      );
      expect(new BacklogStore(state.storage.sql, rowsJson).head("o1")).toMatchObject({ webhookId: "msg_old", via: [] });
    }));

  it("joins data never sent to the observer's last chunk when it was never sent either, under its webhook id", () =>
    withBacklog("backlog-join", (backlog) => {
      backlog.append("o1", { webhookId: "msg_a", rows: rows("a", 2), acceptedAt: t0, attempts: 0 });
      backlog.append("o2", { webhookId: "msg_x", rows: rows("x", 1), acceptedAt: t0 + 1, attempts: 0 });
      backlog.append("o1", { webhookId: "msg_b", rows: rows("b", 3), acceptedAt: t0 + 2, attempts: 0 });

      const joined = backlog.head("o1")!;
      expect(joined).toEqual({
        seq: expect.any(Number),
        webhookId: "msg_a",
        rows: [...rows("a", 2), ...rows("b", 3)],
        data: 5,
        acceptedAt: t0,
        attempts: 0,
        via: [],
      });
      expect(backlog.oldestPendingAcceptedAt("o1")).toBe(t0);
      expect(backlog.head("o2")).toMatchObject({ webhookId: "msg_x", rows: rows("x", 1), data: 1 });
      expect(backlog.remove(joined.seq)).toBe(5);
      expect(backlog.head("o1")).toBeUndefined();
    }));

  it("joins no chunk that an attempt was started at, that failed or that is dead, and no data that were sent", () =>
    withBacklog("backlog-no-join", (backlog) => {
      const chunksOf = (observerId: string) => {
        const chunks: [string, number][] = [];
        for (let chunk = backlog.head(observerId); chunk; chunk = backlog.head(observerId)) {
          chunks.push([chunk.webhookId, chunk.data]);
          backlog.remove(chunk.seq);
        }
        return chunks;
      };

      backlog.append("in-flight", { webhookId: "msg_a", rows: rows("a", 2), acceptedAt: t0, attempts: 0 });
      backlog.startAttempt(backlog.head("in-flight")!.seq);
      backlog.append("in-flight", { webhookId: "msg_b", rows: rows("b", 1), acceptedAt: t0 + 1, attempts: 0 });

      backlog.append("failed", { webhookId: "msg_c", rows: rows("c", 1), acceptedAt: t0, attempts: 1, failedAt: t0 });
      backlog.append("failed", { webhookId: "msg_d", rows: rows("d", 2), acceptedAt: t0 + 1, attempts: 0 });
      // msg_d was never sent, but it was tried with the head: it has failed since now.
      backlog.recordFailure("failed", t0 + 2, t0 - 1);
      backlog.append("failed", { webhookId: "msg_e", rows: rows("e", 3), acceptedAt: t0 + 3, attempts: 0 });

      backlog.append("dead", { webhookId: "msg_f", rows: rows("f", 2), acceptedAt: t0, attempts: 0 });
      expect(backlog.recordFailure("dead", t0 + 1, t0 + 1)).toBe(2);
      backlog.append("dead", { webhookId: "msg_g", rows: rows("g", 1), acceptedAt: t0 + 2, attempts: 0 });

      backlog.append("sent", { webhookId: "msg_h", rows: rows("h", 1), acceptedAt: t0, attempts: 0 });
      backlog.append("sent", { webhookId: "msg_i", rows: rows("i", 2), acceptedAt: t0 + 1, attempts: 1 });
      backlog.append("sent", { webhookId: "msg_j", rows: rows("j", 3), acceptedAt: t0 + 2, attempts: 0 });
      backlog.append("sent", {
        webhookId: "msg_k",
        rows: rows("k", 4),
        acceptedAt: t0 + 3,
        attempts: 1,
        failedAt: t0 + 3,
      });

      expect(chunksOf("in-flight")).toEqual([
        ["msg_a", 2],
        ["msg_b", 1],
      ]);
      expect(chunksOf("failed")).toEqual([
        ["msg_c", 1],
        ["msg_d", 2],
        ["msg_e", 3],
      ]);
      expect(chunksOf("dead")).toEqual([["msg_g", 1]]);
      expect(backlog.replay("dead", t0, t0)).toBe(2);
      expect(backlog.head("dead")).toMatchObject({ webhookId: "msg_f", rows: rows("f", 2) });
      expect(chunksOf("sent")).toEqual([
        ["msg_h", 1],
        ["msg_i", 2],
        ["msg_j", 3],
        ["msg_k", 4],
      ]);
    }));

  it(`joins data up to ${maxDataPerPayload} per chunk`, () =>
    withBacklog("backlog-join-cap", (backlog) => {
      const half = maxDataPerPayload / 2;
      backlog.append("full", { webhookId: "msg_a", rows: rows("a", half), acceptedAt: t0, attempts: 0 });
      backlog.append("full", { webhookId: "msg_b", rows: rows("b", half), acceptedAt: t0 + 1, attempts: 0 });
      backlog.append("full", { webhookId: "msg_c", rows: rows("c", 1), acceptedAt: t0 + 2, attempts: 0 });
      const full = backlog.head("full")!;
      expect(full).toMatchObject({ webhookId: "msg_a", data: maxDataPerPayload, acceptedAt: t0 });
      expect(full.rows).toEqual([...rows("a", half), ...rows("b", half)]);
      backlog.remove(full.seq);
      expect(backlog.head("full")).toMatchObject({ webhookId: "msg_c", rows: rows("c", 1), acceptedAt: t0 + 2 });

      backlog.append("over", { webhookId: "msg_d", rows: rows("d", half), acceptedAt: t0, attempts: 0 });
      backlog.append("over", { webhookId: "msg_e", rows: rows("e", half + 1), acceptedAt: t0 + 1, attempts: 0 });
      const first = backlog.head("over")!;
      expect(first).toMatchObject({ webhookId: "msg_d", data: half });
      backlog.remove(first.seq);
      expect(backlog.head("over")).toMatchObject({ webhookId: "msg_e", data: half + 1 });
    }));

  it("counts the attempts started at a chunk, and makes dead the data failing since the cut-off", () =>
    withBacklog("backlog-failure", (backlog) => {
      backlog.append("o1", { webhookId: "msg_a", rows: rows("a", 3), acceptedAt: t0, attempts: 1, failedAt: t0 });
      backlog.append("o1", { webhookId: "msg_b", rows: rows("b", 2), acceptedAt: t0 + 5, attempts: 0 });
      const first = backlog.head("o1")!;

      backlog.startAttempt(first.seq);
      expect(backlog.recordFailure("o1", t0 + 10, t0 - 1)).toBe(0);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_a", attempts: 2 });
      expect(backlog.oldestDeadAt()).toBeNull();

      // msg_a has failed since t0, msg_b since the failure at t0 + 10.
      expect(backlog.recordFailure("o1", t0 + 100, t0)).toBe(3);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_b", attempts: 0 });
      expect(backlog.oldestDeadAt()).toBe(t0 + 100);
      expect(backlog.oldestPendingAcceptedAt("o1")).toBe(t0 + 5);

      expect(backlog.recordFailure("o1", t0 + 200, t0 + 9)).toBe(0);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_b", attempts: 0 });
      expect(backlog.recordFailure("o1", t0 + 300, t0 + 10)).toBe(2);
      expect(backlog.head("o1")).toBeUndefined();
      expect(backlog.oldestPendingAcceptedAt("o1")).toBeNull();
    }));

  it("restarts the schedule of the observer's pending data, leaving dead data and other observers as they are", () =>
    withBacklog("backlog-restart", (backlog) => {
      backlog.append("o1", { webhookId: "msg_dead", rows: rows("d", 1), acceptedAt: t0, attempts: 1, failedAt: t0 });
      expect(backlog.recordFailure("o1", t0 + 10, t0)).toBe(1);
      backlog.append("o1", {
        webhookId: "msg_a",
        rows: rows("a", 2),
        acceptedAt: t0 + 20,
        attempts: 1,
        failedAt: t0 + 20,
      });
      backlog.append("o1", { webhookId: "msg_b", rows: rows("b", 3), acceptedAt: t0 + 30, attempts: 0 });
      backlog.recordFailure("o1", t0 + 40, t0 - 1);
      backlog.append("o2", { webhookId: "msg_x", rows: rows("x", 4), acceptedAt: t0, attempts: 1, failedAt: t0 });

      backlog.restartSchedule("o1");
      // Failing since t0 + 20 and t0 + 40 before the restart; since t0 + 100 now.
      expect(backlog.recordFailure("o1", t0 + 100, t0 + 99)).toBe(0);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_a", attempts: 1 });
      expect(backlog.recordFailure("o2", t0 + 100, t0)).toBe(4);
      expect(backlog.recordFailure("o1", t0 + 200, t0 + 100)).toBe(5);
      expect(backlog.head("o1")).toBeUndefined();
      expect(backlog.replay("o1", t0, t0)).toBe(1);
    }));

  it("drops dead chunks whose retention ended, counted per observer", () =>
    withBacklog("backlog-drop-dead", (backlog) => {
      for (const [observer, count, failedAt] of [
        ["o1", 3, t0],
        ["o1", 2, t0 + 50],
        ["o2", 4, t0],
      ] as const) {
        backlog.append(observer, {
          webhookId: `msg_${observer}_${count}`,
          rows: rows("d", count),
          acceptedAt: t0,
          attempts: 1,
          failedAt,
        });
      }
      backlog.recordFailure("o1", t0 + 10, t0);
      backlog.recordFailure("o2", t0 + 20, t0);
      backlog.recordFailure("o1", t0 + 60, t0 + 50);

      expect(backlog.dropDead(t0 + 9)).toEqual(new Map());
      expect(backlog.dropDead(t0 + 20)).toEqual(
        new Map([
          ["o1", 3],
          ["o2", 4],
        ]),
      );
      expect(backlog.oldestDeadAt()).toBe(t0 + 60);
      expect(backlog.dropDead(t0 + 60)).toEqual(new Map([["o1", 2]]));
      expect(backlog.oldestDeadAt()).toBeNull();
    }));

  it("trims the oldest data first, dead or pending, cutting a chunk when only part of it must go", () =>
    withBacklog("backlog-trim", (backlog) => {
      backlog.append("o1", { webhookId: "msg_dead", rows: rows("d", 2), acceptedAt: t0, attempts: 1, failedAt: t0 });
      backlog.recordFailure("o1", t0 + 10, t0);
      backlog.append("o1", { webhookId: "msg_p1", rows: rows("p", 3), acceptedAt: t0 + 20, attempts: 0 });
      backlog.append("o1", {
        webhookId: "msg_p2",
        rows: rows("q", 4),
        acceptedAt: t0 + 30,
        attempts: 1,
        failedAt: t0 + 30,
      });
      backlog.append("o2", { webhookId: "msg_other", rows: rows("o", 5), acceptedAt: t0, attempts: 0 });
      const p1 = backlog.head("o1")!;

      expect(backlog.trim("o1", 4)).toEqual({ pending: 2, dead: 2 });
      expect(backlog.head("o1")).toEqual({ ...p1, rows: [["p3", 3_000, 2, "vm1"]], data: 1 });
      expect(backlog.oldestDeadAt()).toBeNull();

      expect(backlog.trim("o1", 100)).toEqual({ pending: 5, dead: 0 });
      expect(backlog.head("o1")).toBeUndefined();
      expect(backlog.head("o2")).toMatchObject({ data: 5 });
    }));

  it("replays dead chunks accepted within the range, with their webhook ids, as never tried", () =>
    withBacklog("backlog-replay", (backlog) => {
      for (const [index, acceptedAt] of [t0, t0 + 1_000, t0 + 2_000].entries()) {
        backlog.append("o1", {
          webhookId: `msg_${index}`,
          rows: rows("r", index + 1),
          acceptedAt,
          attempts: 3,
          failedAt: t0,
        });
      }
      backlog.append("o2", { webhookId: "msg_o2", rows: rows("s", 7), acceptedAt: t0, attempts: 3, failedAt: t0 });
      backlog.recordFailure("o1", t0 + 5_000, t0);
      backlog.recordFailure("o2", t0 + 5_000, t0);

      expect(backlog.replay("o1", t0 + 3_000, t0 + 4_000)).toBe(0);
      expect(backlog.replay("o1", t0 + 1_000, t0 + 2_000)).toBe(5);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_1", data: 2, attempts: 0, acceptedAt: t0 + 1_000 });
      expect(backlog.replay("o1", t0 + 1_000, t0 + 2_000)).toBe(0);
      expect(backlog.replay("o1", 0, Number.MAX_SAFE_INTEGER)).toBe(1);
      expect(backlog.head("o1")).toMatchObject({ webhookId: "msg_0", attempts: 0 });
      expect(backlog.head("o2")).toBeUndefined();
    }));

  it("removes one observer's chunks, or all of them", () =>
    withBacklog("backlog-remove", (backlog) => {
      backlog.append("o1", { webhookId: "msg_1", rows: rows("a", 1), acceptedAt: t0, attempts: 0 });
      backlog.append("o2", { webhookId: "msg_2", rows: rows("b", 1), acceptedAt: t0, attempts: 0 });
      backlog.append("o3", { webhookId: "msg_3", rows: rows("c", 1), acceptedAt: t0, attempts: 0 });

      backlog.removeObserver("o1");
      expect(backlog.head("o1")).toBeUndefined();
      expect(backlog.head("o2")).toMatchObject({ webhookId: "msg_2" });

      backlog.clear();
      expect([backlog.head("o2"), backlog.head("o3")]).toEqual([undefined, undefined]);
    }));
});
