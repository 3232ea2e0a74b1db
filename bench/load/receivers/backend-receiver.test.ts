import { compress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder.ts";
import { startBackendReceiver } from "./backend-receiver.ts";
import { receiverHost } from "./receivers.ts";
import { SampleTally } from "./sample-tally.ts";

const writeRequest = (values: number[]) =>
  compress(
    encodeWriteRequest([{ labels: [["__name__", "m"]], samples: values.map((value) => ({ value, timestamp: 1 })) }]),
  );

describe("the backend receiver", () => {
  it("answers at once and counts each payload's samples in the tally it has then", async () => {
    const receiver = await startBackendReceiver("PROMETHEUS");
    try {
      const post = (body: Uint8Array) =>
        fetch(`http://${receiverHost}:${receiver.port}/api/v1/write`, { method: "POST", body });
      expect((await post(writeRequest([0, 1, 2]))).status).toBe(204);
      await post(writeRequest([2]));
      await post(Uint8Array.of(1, 2, 3));
      expect([receiver.tally.distinct, receiver.tally.duplicates, receiver.tally.unreadable]).toEqual([3, 1, 1]);
      receiver.tally = new SampleTally();
      await post(writeRequest([2, 3]));
      expect([receiver.tally.distinct, receiver.tally.duplicates]).toEqual([2, 0]);
    } finally {
      await receiver.close();
    }
  });

  it("answers OTLP as its exporters expect", async () => {
    const receiver = await startBackendReceiver("OTLP");
    try {
      const response = await fetch(`http://${receiverHost}:${receiver.port}/v1/metrics`, {
        method: "POST",
        body: new Uint8Array(0),
      });
      expect([response.status, (await response.arrayBuffer()).byteLength]).toEqual([200, 0]);
      expect(receiver.tally.distinct).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});
