import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app";
import { clearJournalEntries, intakeMessagesSend } from "../intake/journal/journal-client";
import { recordIntakeQueue } from "../intake/journal/testing/recorded-queue";
import { encodeIntakeMessages } from "../intake/queue-message";
import { readIntakeMessage } from "../intake/queue-message-bytes";
import type { Datum } from "../vocabulary/datum";

/* The journal replay route; the drain routes are tested with the API (test/api/local-control.test.ts). */

const token = "local-control-token-0123456789";
const app = createApp();
const launched = { ...env, LOCAL_CONTROL_TOKEN: token } as Env;

const replay = (headers: Record<string, string>) =>
  app.request("/_local/journal/replay", { method: "POST", headers }, launched, createExecutionContext());

/** A replay reaches all 16 journal shards, which takes seconds to start on a loaded machine. */
const replayTimeoutMs = 120_000;

const datum = (id: string): Datum => ({ id, metric: "local.replay", timestamp: 1, value: 1, resourceId: "vm1" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /_local/journal/replay", () => {
  it(
    "sends the journal's entries again and tells how many",
    async () => {
      const sent = recordIntakeQueue();
      const journaled = intakeMessagesSend(env, true);
      await journaled(env.INTAKE_QUEUE, encodeIntakeMessages([datum("a")]));
      await journaled(env.INTAKE_QUEUE, encodeIntakeMessages([datum("b")]));
      const written = sent.flat();
      sent.length = 0;

      const response = await replay({ "x-local-control-token": token });

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ replayed: 2 });
      expect(sent.flat().sort()).toEqual([...written].sort());
      await clearJournalEntries(env, written.map(readIntakeMessage));
    },
    replayTimeoutMs,
  );

  it("does not exist without the launcher's token", async () => {
    expect((await replay({})).status).toBe(404);
    expect((await replay({ "x-local-control-token": `${token}x` })).status).toBe(404);
  });
});
