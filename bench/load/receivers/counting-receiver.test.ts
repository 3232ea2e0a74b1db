import { describe, expect, it } from "vitest";
import { startCountingReceiver } from "./counting-receiver.ts";
import { DatumTally } from "./datum-tally.ts";
import { receiverHost } from "./receivers.ts";

const element = (value: number) => ({ resourceId: "r", metric: "m", value, timestamp: 1 });

describe("the counting receiver", () => {
  it("answers 204 and counts each payload's data in the tally it has then", async () => {
    const receiver = await startCountingReceiver();
    try {
      const post = (values: number[]) =>
        fetch(`http://${receiverHost}:${receiver.port}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(values.map(element)),
        });
      expect((await post([0, 1, 2])).status).toBe(204);
      await post([2]);
      expect([receiver.tally.distinct, receiver.tally.duplicates]).toEqual([3, 1]);
      receiver.tally = new DatumTally();
      await post([2, 3]);
      expect([receiver.tally.distinct, receiver.tally.duplicates]).toEqual([2, 0]);
    } finally {
      await receiver.close();
    }
  });
});
