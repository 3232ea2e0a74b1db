import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import worker from "../index";
import type { Datum } from "../intake/datum";
import { metricStub } from "../metrics/metric-object";
import { encodeDeliveryMessages } from "./retry-message";
import type { DeliveryMessage } from "./vocabulary";

type DeadLetter = Omit<DeliveryMessage, "kind" | "rows"> & { data: number };

function data(metric: string, count: number): Datum[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `x${index}`,
    metric,
    timestamp: index,
    value: index,
    resourceId: "vm1",
  }));
}

/** Runs the Worker's queue handler on tower-deliveries-dead messages. */
async function consumeDeadLetters(letters: DeadLetter[]) {
  const bodies = letters.flatMap(({ data: count, ...target }) =>
    encodeDeliveryMessages(target, data(target.metric, count)).map((message) => message.text),
  );
  const batch = createMessageBatch<string>(
    "tower-deliveries-dead",
    bodies.map((body, index) => ({ id: `dead-${index}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

async function observer(metric: string, port: number): Promise<string> {
  return String((await addObserver(metric, { protocol: "UDP", observerHost: "10.0.0.1", observerPort: port })).id);
}

async function statusOf(metric: string, observerId: string) {
  return (await metricStub(env, metric).observerReport(observerId))?.status;
}

const noDeliveries = { delivered: 0, failed: 0, lost: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null };

describe("dead-letter consumer", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("records each dead letter as a failure with its data lost, on its observer's status", async () => {
    await declareMetric("dead.a");
    await declareMetric("dead.b");
    const [first, untouched, other] = [
      await observer("dead.a", 1),
      await observer("dead.a", 2),
      await observer("dead.b", 3),
    ];
    const before = Date.now();

    const result = await consumeDeadLetters([
      {
        metric: "dead.a",
        observerId: first,
        webhookId: "msg_1",
        attempts: 8,
        lastError: "no relay configured (RELAY_URL)",
        data: 2,
      },
      {
        metric: "dead.b",
        observerId: other,
        webhookId: "msg_2",
        attempts: 5,
        lastError: "HTTP 500 from the observer",
        data: 1,
      },
      {
        metric: "dead.a",
        observerId: first,
        webhookId: "msg_3",
        attempts: 8,
        lastError: "relay answered HTTP 502",
        data: 3,
      },
    ]);

    expect(result).toMatchObject({ outcome: "ok", ackAll: true, retryBatch: { retry: false }, explicitAcks: [] });
    const firstStatus = await statusOf("dead.a", first);
    expect(firstStatus).toEqual({
      delivered: 0,
      failed: 2,
      lost: 5,
      lastSuccessAt: null,
      lastFailureAt: expect.any(String),
      lastError: "gave up after 8 attempts: relay answered HTTP 502",
    });
    const failedAt = Date.parse(firstStatus!.lastFailureAt!);
    expect(failedAt).toBeGreaterThanOrEqual(before);
    expect(failedAt).toBeLessThanOrEqual(Date.now());
    expect(await statusOf("dead.b", other)).toMatchObject({
      failed: 1,
      lost: 1,
      lastError: "gave up after 5 attempts: HTTP 500 from the observer",
    });
    expect(await statusOf("dead.a", untouched)).toEqual(noDeliveries);
  });

  it("logs the loss of a metric-level dead letter, which names no observer", async () => {
    await declareMetric("dead.metric");
    const observerId = await observer("dead.metric", 4);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);

    const result = await consumeDeadLetters([
      { metric: "dead.metric", attempts: 8, lastError: "observer look-up failed: boom", data: 2 },
    ]);

    expect(result.ackAll).toBe(true);
    expect(logged).toHaveBeenCalledWith(
      'dead letter: 2 data of metric "dead.metric" lost; gave up after 8 attempts: observer look-up failed: boom',
    );
    expect(await statusOf("dead.metric", observerId)).toEqual(noDeliveries);
  });

  it("acknowledges a dead letter of an observer removed since", async () => {
    await declareMetric("dead.removed");
    const removed = await observer("dead.removed", 5);
    const kept = await observer("dead.removed", 6);
    await metricStub(env, "dead.removed").removeObserver(removed);

    const result = await consumeDeadLetters([
      { metric: "dead.removed", observerId: removed, webhookId: "msg_4", attempts: 8, lastError: "timeout", data: 1 },
    ]);

    expect(result.ackAll).toBe(true);
    expect(await statusOf("dead.removed", removed)).toBeUndefined();
    expect(await statusOf("dead.removed", kept)).toEqual(noDeliveries);
  });
});
