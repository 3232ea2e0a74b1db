import { describe, expect, it, vi } from "vitest";
import { drainProgress } from "./drain";
import { journalShard } from "./journal/journal-client";
import { localTestEnv as env } from "./journal/testing/local-test-env";
import { recordIntakeQueue } from "./journal/testing/recorded-queue";
import { localControlAnswer } from "./local-control";

const token = env.LOCAL_CONTROL_TOKEN!;

function control(method: string, path: string, headers: Record<string, string> = { "x-local-control-token": token }) {
  return new Request(`http://127.0.0.1${path}`, { method, headers });
}

/** A replay reaches all 16 journal shards, which takes seconds to start on a loaded machine. */
const replayTimeoutMs = 120_000;

describe("localControlAnswer", () => {
  it("leaves every request to the Worker without a LOCAL_CONTROL_TOKEN, or without the token, or with another one", async () => {
    const withoutToken = { ...env, LOCAL_CONTROL_TOKEN: undefined };
    for (const [method, path] of [
      ["GET", "/_local/drain"],
      ["POST", "/_local/drain"],
      ["POST", "/_local/journal/replay"],
    ] as const) {
      expect(await localControlAnswer(control(method, path), withoutToken)).toBeUndefined();
      expect(await localControlAnswer(control(method, path, {}), env)).toBeUndefined();
      expect(
        await localControlAnswer(control(method, path, { "x-local-control-token": `${token}x` }), env),
      ).toBeUndefined();
      expect(await localControlAnswer(control(method, path, { "x-local-control-token": "" }), env)).toBeUndefined();
    }
  });

  it("leaves any other path or method to the Worker, with the token too", async () => {
    for (const [method, path] of [
      ["DELETE", "/_local/drain"],
      ["GET", "/_local/journal/replay"],
      ["GET", "/_local/other"],
      ["GET", "/healthz"],
    ]) {
      expect(await localControlAnswer(control(method!, path!), env)).toBeUndefined();
    }
  });

  it("tells how far a drain is without starting one", async () => {
    const answer = await localControlAnswer(control("GET", "/_local/drain"), env);
    expect(await answer?.json()).toEqual({
      draining: false,
      requestsInFlight: 0,
      intakeMessagesInFlight: expect.any(Number),
      batchesInFlight: 0,
    });
  });

  it(
    "sends the journal's entries again, tells how many, and counts them as messages to wait for",
    async () => {
      await journalShard(env, 5).write([{ id: "r/0", body: Uint8Array.of(1) }]);
      const sent = recordIntakeQueue();
      const before = drainProgress().intakeMessagesInFlight;

      const answer = await localControlAnswer(control("POST", "/_local/journal/replay"), env);

      expect(await answer?.json()).toEqual({ replayed: 1 });
      expect(sent.flat()).toEqual([{ journalEntry: [5, "r/0"], body: Uint8Array.of(1) }]);
      expect(drainProgress().intakeMessagesInFlight).toBe(before + 1);
      vi.restoreAllMocks();
    },
    replayTimeoutMs,
  );

  // Last: draining never ends in an isolate.
  it("starts draining, and tells so", async () => {
    const answer = await localControlAnswer(control("POST", "/_local/drain"), env);
    expect(await answer?.json()).toMatchObject({ draining: true });
    expect(drainProgress().draining).toBe(true);
  });
});
