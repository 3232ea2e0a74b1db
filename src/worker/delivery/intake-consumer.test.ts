import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import worker from "../index";
import type { Datum } from "../intake/datum";
import { encodeIntakeMessages } from "../intake/queue-message";
import { metricStub } from "../metrics/metric-object";
import type { DeliveryMessage } from "./vocabulary";

const accepted = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
const noRelay = "no relay configured (RELAY_URL)";

function datum(id: string, metric: string, value: number): Datum {
  return { id, metric, timestamp: 1_000 * value, value, resourceId: "vm1" };
}

/**
 * Runs the Worker's queue handler on one tower-intake message per group of data; returns what it
 * did with the batch, and the error it failed with, if any.
 */
async function consumeIntake(groups: Datum[][], testEnv: Env = env) {
  const bodies = groups.flatMap((data) => encodeIntakeMessages(data).map((message) => message.text));
  const batch = createMessageBatch<string>(
    "tower-intake",
    bodies.map((body, index) => ({ id: `intake-${index}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  let error: unknown;
  try {
    await (worker as ExportedHandler<Env>).queue!(batch, testEnv, ctx);
  } catch (thrown) {
    error = thrown;
  }
  return { ...(await getQueueResult(batch, ctx)), error };
}

async function statusOf(metric: string, observer: Record<string, unknown>) {
  return (await metricStub(env, metric).observerReport(String(observer.id)))?.status;
}

const sentMessage = (body: unknown) => JSON.parse(String(body)) as DeliveryMessage;

describe("intake consumer", () => {
  let retried: MockInstance<Queue["send"]>;
  let deadLettered: MockInstance<Queue["send"]>;

  beforeEach(() => {
    retried = vi.spyOn(env.DELIVERY_QUEUE, "send").mockResolvedValue(accepted);
    deadLettered = vi.spyOn(env.DEAD_LETTER_QUEUE, "send").mockResolvedValue(accepted);
    for (const queue of [env.DELIVERY_QUEUE, env.DEAD_LETTER_QUEUE]) {
      vi.spyOn(queue, "sendBatch").mockRejectedValue(new Error("one message expected"));
    }
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("makes one delivery per observer for the whole batch and hands its failure to the retry queue", async () => {
    await declareMetric("intake.tcp");
    const observer = await addObserver("intake.tcp", {
      format: "GRAPHITE",
      protocol: "TCP",
      observerHost: "10.0.0.1",
      observerPort: 2003,
    });
    const [d1, d2, d3] = [1, 2, 3].map((value) => datum(`d${value}`, "intake.tcp", value));

    const result = await consumeIntake([
      [d1!, d2!],
      [datum("q1", "intake.quiet", 9), d3!],
    ]);

    expect(result).toMatchObject({ ackAll: true, retryBatch: { retry: false }, explicitAcks: [], error: undefined });
    expect(await statusOf("intake.tcp", observer)).toMatchObject({
      delivered: 0,
      failed: 1,
      lost: 0,
      lastError: noRelay,
    });
    expect(retried).toHaveBeenCalledTimes(1);
    const [body, options] = retried.mock.calls[0]!;
    expect(options).toEqual({ contentType: "text", delaySeconds: 0 });
    expect(sentMessage(body)).toEqual({
      kind: "delivery",
      metric: "intake.tcp",
      observerId: observer.id,
      webhookId: expect.stringMatching(/^msg_/),
      attempts: 1,
      lastError: noRelay,
      rows: [
        ["d1", 1000, 1, "vm1"],
        ["d2", 2000, 2, "vm1"],
        ["d3", 3000, 3, "vm1"],
      ],
    });
    expect(deadLettered).not.toHaveBeenCalled();
  });

  it("registers a metric it sees for the first time, even without observers", async () => {
    const result = await consumeIntake([[datum("n1", "intake.new", 1)]]);
    expect(result).toMatchObject({ ackAll: true, error: undefined });
    expect(await metricStub(env, "intake.new").describeMetric()).toEqual({ id: "intake.new", observers: 0 });
    expect(retried).not.toHaveBeenCalled();
  });

  it("dead-letters a failure at once when a single attempt is allowed", async () => {
    await declareMetric("intake.once");
    const observer = await addObserver("intake.once", {
      protocol: "UDP",
      observerHost: "10.0.0.2",
      observerPort: 8125,
    });

    const result = await consumeIntake([[datum("o1", "intake.once", 1)]], {
      ...env,
      DELIVERY_MAX_ATTEMPTS: "1",
    } as Env);

    expect(result).toMatchObject({ ackAll: true, error: undefined });
    expect(retried).not.toHaveBeenCalled();
    expect(deadLettered).toHaveBeenCalledTimes(1);
    const [body, options] = deadLettered.mock.calls[0]!;
    expect(options?.delaySeconds).toBeUndefined();
    expect(sentMessage(body)).toMatchObject({ observerId: observer.id, attempts: 1, lastError: noRelay });
  });

  it("posts the batch to an HTTP observer and records the data delivered, leaving nothing to retry", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    await declareMetric("intake.http");
    const observer = await addObserver("intake.http", {
      format: "TOWER/JSON",
      callbackUrl: "http://receiver.example/in",
    });

    const result = await consumeIntake([[datum("h1", "intake.http", 1)], [datum("h2", "intake.http", 2)]]);

    expect(result).toMatchObject({ ackAll: true, error: undefined });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("http://receiver.example/in");
    expect(init).toMatchObject({
      method: "POST",
      body:
        '[{"resourceId":"vm1","metric":"intake.http","value":1,"timestamp":1000},' +
        '{"resourceId":"vm1","metric":"intake.http","value":2,"timestamp":2000}]',
    });
    expect(await statusOf("intake.http", observer)).toMatchObject({ delivered: 2, failed: 0, lastError: null });
    expect(retried).not.toHaveBeenCalled();
  });

  it("removes an observer that answers 410 Gone, and retries nothing for it", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 410 }));
    await declareMetric("intake.gone");
    const observer = await addObserver("intake.gone", { callbackUrl: "http://gone.example/" });

    const result = await consumeIntake([[datum("g1", "intake.gone", 1)]]);

    expect(result).toMatchObject({ ackAll: true, error: undefined });
    expect(await metricStub(env, "intake.gone").observerReport(String(observer.id))).toBeNull();
    expect(retried).not.toHaveBeenCalled();
  });

  it("leaves the batch unacknowledged when a failure cannot be handed to the retry queue", async () => {
    retried.mockRejectedValue(new Error("queue down"));
    await declareMetric("intake.stuck");
    await addObserver("intake.stuck", { protocol: "TCP", observerHost: "10.0.0.3", observerPort: 2003 });

    const result = await consumeIntake([[datum("s1", "intake.stuck", 1)]]);

    expect(result).toMatchObject({ ackAll: false, explicitAcks: [], error: new Error("queue down") });
  });
});
