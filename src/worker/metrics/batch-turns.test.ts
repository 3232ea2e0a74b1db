import { describe, expect, it } from "vitest";
import { BatchTurns } from "./batch-turns";

const settled = async <T>(promise: Promise<T>, ms = 20) =>
  Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms))]);

describe("BatchTurns", () => {
  it("gives the turn at once when no batch has it", async () => {
    const turns = new BatchTurns();
    expect(await settled(turns.take(60_000))).toBe(1);
  });

  it("gives the next batch its turn only once the batch before has handed its turn back", async () => {
    const turns = new BatchTurns();
    const first = await turns.take(60_000);
    const second = turns.take(60_000);
    const third = turns.take(60_000);

    expect(await settled(second)).toBe("pending");
    turns.handBack(first);
    expect(await settled(second)).toBe(2);
    expect(await settled(third)).toBe("pending");
    turns.handBack(2);
    expect(await settled(third)).toBe(3);
  });

  it("ends a turn that is not handed back when its lease runs out", async () => {
    const turns = new BatchTurns();
    await turns.take(50);
    const next = turns.take(60_000);

    expect(await settled(next, 10)).toBe("pending");
    expect(await settled(next, 200)).toBe(2);
  });

  it("ignores a turn handed back after its lease ran out: the turn of the batch after it goes on", async () => {
    const turns = new BatchTurns();
    const late = await turns.take(10);
    const next = await turns.take(60_000);
    const after = turns.take(60_000);

    turns.handBack(late);
    expect(await settled(after)).toBe("pending");
    turns.handBack(next);
    expect(await settled(after)).toBe(3);
  });
});
