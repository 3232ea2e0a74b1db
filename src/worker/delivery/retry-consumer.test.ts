import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { addObserver, declareMetric } from "../../../test/api/support/metrics";
import worker from "../index";
import type { Datum } from "../intake/datum";
import { metricStub } from "../metrics/metric-object";
import { encodeDeliveryMessages } from "./retry-message";
import type { DeliveryMessage } from "./vocabulary";

const accepted = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
const noRelay = "no relay configured (RELAY_URL)";
const secret = "0123456789abcdef-secret";

/** Retries after 10 s, doubling; the fourth attempt is the last. */
const retryEnv = { ...env, RETRY_BASE_DELAY_SECONDS: "10", DELIVERY_MAX_ATTEMPTS: "4" } as Env;

function data(metric: string, count: number): Datum[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `r${index}`,
    metric,
    timestamp: index,
    value: index,
    resourceId: "vm1",
  }));
}

/** Runs the Worker's queue handler on tower-deliveries messages. */
async function consumeRetries(messages: Omit<DeliveryMessage, "kind" | "rows">[], owed: Datum[]) {
  const bodies = messages.flatMap((target) => encodeDeliveryMessages(target, owed).map((message) => message.text));
  const batch = createMessageBatch<string>(
    "tower-deliveries",
    bodies.map((body, index) => ({ id: `retry-${index}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch, retryEnv, ctx);
  return getQueueResult(batch, ctx);
}

async function failedObserver(metric: string) {
  await declareMetric(metric);
  return String(
    (await addObserver(metric, { format: "INFLUXDB", protocol: "TCP", observerHost: "10.0.0.1", observerPort: 8089 }))
      .id,
  );
}

async function statusOf(metric: string, observerId: string) {
  return (await metricStub(env, metric).observerReport(observerId))?.status;
}

const sentMessage = (body: unknown) => JSON.parse(String(body)) as DeliveryMessage;

describe("retry consumer", () => {
  let retried: MockInstance<Queue["send"]>;
  let deadLettered: MockInstance<Queue["send"]>;
  let fetch: MockInstance<typeof globalThis.fetch>;

  beforeEach(() => {
    retried = vi.spyOn(env.DELIVERY_QUEUE, "send").mockResolvedValue(accepted);
    deadLettered = vi.spyOn(env.DEAD_LETTER_QUEUE, "send").mockResolvedValue(accepted);
    for (const queue of [env.DELIVERY_QUEUE, env.DEAD_LETTER_QUEUE]) {
      vi.spyOn(queue, "sendBatch").mockRejectedValue(new Error("one message expected"));
    }
    fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("retries a failed observer again with the same webhook id, one more attempt and a longer delay", async () => {
    const observerId = await failedObserver("retry.again");
    const owed = data("retry.again", 3);

    const result = await consumeRetries(
      [
        {
          metric: "retry.again",
          observerId,
          webhookId: "msg_fixed",
          attempts: 2,
          lastError: "relay answered HTTP 502",
        },
      ],
      owed,
    );

    expect(result).toMatchObject({ outcome: "ok", ackAll: true, retryBatch: { retry: false } });
    expect(retried).toHaveBeenCalledTimes(1);
    const [body, options] = retried.mock.calls[0]!;
    expect(options).toEqual({ contentType: "text", delaySeconds: 30 });
    expect(sentMessage(body)).toEqual({
      kind: "delivery",
      metric: "retry.again",
      observerId,
      webhookId: "msg_fixed",
      attempts: 3,
      lastError: noRelay,
      rows: [
        ["r0", 0, 0, "vm1"],
        ["r1", 1, 1, "vm1"],
        ["r2", 2, 2, "vm1"],
      ],
    });
    expect(await statusOf("retry.again", observerId)).toMatchObject({ failed: 1, lost: 0, lastError: noRelay });
    expect(deadLettered).not.toHaveBeenCalled();
  });

  it("dead-letters the data when the last allowed attempt fails", async () => {
    const observerId = await failedObserver("retry.last");

    const result = await consumeRetries(
      [{ metric: "retry.last", observerId, webhookId: "msg_last", attempts: 3, lastError: noRelay }],
      data("retry.last", 2),
    );

    expect(result.ackAll).toBe(true);
    expect(retried).not.toHaveBeenCalled();
    expect(deadLettered).toHaveBeenCalledTimes(1);
    const [body, options] = deadLettered.mock.calls[0]!;
    expect(options?.delaySeconds).toBeUndefined();
    expect(sentMessage(body)).toMatchObject({ observerId, webhookId: "msg_last", attempts: 4, lastError: noRelay });
  });

  it("redelivers only to the observer it names, signed with the original webhook id", async () => {
    await declareMetric("retry.http");
    const named = String((await addObserver("retry.http", { callbackUrl: "http://named.example/", secret })).id);
    const other = String((await addObserver("retry.http", { callbackUrl: "http://other.example/" })).id);

    const result = await consumeRetries(
      [
        {
          metric: "retry.http",
          observerId: named,
          webhookId: "msg_original",
          attempts: 1,
          lastError: "HTTP 503 from the observer",
        },
      ],
      data("retry.http", 4),
    );

    expect(result.ackAll).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("http://named.example/");
    expect(new Headers(init?.headers).get("webhook-id")).toBe("msg_original");
    expect(await statusOf("retry.http", named)).toMatchObject({ delivered: 4, failed: 0 });
    expect(await statusOf("retry.http", other)).toMatchObject({ delivered: 0, failed: 0 });
    expect(retried).not.toHaveBeenCalled();
  });

  it("delivers a metric-level retry to every observer of the metric", async () => {
    await declareMetric("retry.metric");
    const first = String((await addObserver("retry.metric", { callbackUrl: "http://first.example/" })).id);
    const second = String((await addObserver("retry.metric", { callbackUrl: "http://second.example/" })).id);

    await consumeRetries(
      [{ metric: "retry.metric", attempts: 1, lastError: "observer look-up failed: boom" }],
      data("retry.metric", 2),
    );

    expect(fetch.mock.calls.map(([url]) => url).sort()).toEqual(["http://first.example/", "http://second.example/"]);
    expect(await statusOf("retry.metric", first)).toMatchObject({ delivered: 2 });
    expect(await statusOf("retry.metric", second)).toMatchObject({ delivered: 2 });
  });

  it("drops the data of an observer removed since, and acknowledges the message", async () => {
    const observerId = await failedObserver("retry.removed");
    expect(await metricStub(env, "retry.removed").removeObserver(observerId)).toBe(true);

    const result = await consumeRetries(
      [{ metric: "retry.removed", observerId, webhookId: "msg_removed", attempts: 1, lastError: noRelay }],
      data("retry.removed", 2),
    );

    expect(result.ackAll).toBe(true);
    expect(retried).not.toHaveBeenCalled();
    expect(deadLettered).not.toHaveBeenCalled();
  });
});
