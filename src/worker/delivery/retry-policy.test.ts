import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Config, readConfig } from "../config";
import type { Datum } from "../intake/datum";
import { rowsToData } from "../intake/queue-message";
import { retryDelaySeconds, settleUndelivered } from "./retry-policy";
import type { DeliveryMessage, Undelivered } from "./vocabulary";

const config = (overrides: Partial<Config>): Config => ({ ...readConfig(env), ...overrides });

const delays = (attempt: number, settings: Config) =>
  [0, 0.5, 1].map((random) => retryDelaySeconds(attempt, settings, () => random));

describe("retryDelaySeconds", () => {
  const settings = config({ RETRY_BASE_DELAY_SECONDS: 2, RETRY_MAX_DELAY_SECONDS: 3_600 });

  it("doubles from the base with each retry, half of it fixed and half jitter", () => {
    expect(delays(1, settings)).toEqual([1, 2, 2]);
    expect(delays(2, settings)).toEqual([2, 3, 4]);
    expect(delays(3, settings)).toEqual([4, 6, 8]);
    expect(delays(6, settings)).toEqual([32, 48, 64]);
  });

  it("stops growing at the maximum delay", () => {
    expect(delays(12, settings)).toEqual([1_800, 2_700, 3_600]);
    expect(delays(40, settings)).toEqual([1_800, 2_700, 3_600]);
    const lowCap = config({ RETRY_BASE_DELAY_SECONDS: 2, RETRY_MAX_DELAY_SECONDS: 100 });
    expect(delays(6, lowCap)).toEqual([32, 48, 64]);
    expect(delays(7, lowCap)).toEqual([50, 75, 100]);
  });

  it("retries at once when the base delay is zero", () => {
    const immediate = config({ RETRY_BASE_DELAY_SECONDS: 0, RETRY_MAX_DELAY_SECONDS: 3_600 });
    for (const attempt of [1, 5, 30]) expect(delays(attempt, immediate)).toEqual([0, 0, 0]);
  });
});

interface Sent {
  message: DeliveryMessage;
  delaySeconds?: number;
}

function recordingQueue() {
  const sent: Sent[] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  const record = (body: unknown, delaySeconds?: number) =>
    sent.push({ message: JSON.parse(String(body)) as DeliveryMessage, delaySeconds });
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      record(body, options?.delaySeconds);
      return { metadata };
    },
    async sendBatch(messages: Iterable<MessageSendRequest>) {
      for (const { body, delaySeconds } of messages) record(body, delaySeconds);
      return { metadata };
    },
    metrics: async () => metadata.metrics,
  } satisfies Queue;
  return { queue, sent };
}

function queues() {
  const retries = recordingQueue();
  const dead = recordingQueue();
  const testEnv: Env = { ...env, DELIVERY_QUEUE: retries.queue, DEAD_LETTER_QUEUE: dead.queue };
  return { testEnv, retried: retries.sent, deadLettered: dead.sent };
}

function data(count: number, metric: string, resourceId = "vm1"): Datum[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `d${index}`,
    metric,
    timestamp: 1000,
    value: index,
    resourceId,
  }));
}

function undelivered(observerId: string | undefined, attempts: number, owed = data(2, "cpu")): Undelivered {
  return {
    metric: "cpu",
    observerId,
    webhookId: observerId && `msg_${observerId}`,
    data: owed,
    attempts,
    error: `failed ${attempts}`,
  };
}

function expected({ metric, observerId, webhookId, attempts, error, data: owed }: Undelivered): DeliveryMessage {
  const rows = owed.map((datum): DeliveryMessage["rows"][number] => [
    datum.id,
    datum.timestamp,
    datum.value,
    datum.resourceId,
  ]);
  return { kind: "delivery", metric, observerId, webhookId, attempts, lastError: error, rows };
}

describe("settleUndelivered", () => {
  const settings = config({ DELIVERY_MAX_ATTEMPTS: 3, RETRY_BASE_DELAY_SECONDS: 10, RETRY_MAX_DELAY_SECONDS: 3_600 });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("retries with backoff below DELIVERY_MAX_ATTEMPTS and dead-letters from it on, without delay", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const { testEnv, retried, deadLettered } = queues();
    const first = undelivered("o1", 1);
    const second = undelivered("o2", 2);
    const exhausted = undelivered("o3", 3);
    const beyond = undelivered("o4", 4);
    const metricLevel = undelivered(undefined, 1);

    await settleUndelivered(testEnv, settings, [first, exhausted, second, beyond, metricLevel]);

    expect(retried).toEqual([
      { message: expected(first), delaySeconds: 8 },
      { message: expected(second), delaySeconds: 15 },
      { message: expected(metricLevel), delaySeconds: 8 },
    ]);
    expect(deadLettered.map((sent) => sent.message)).toEqual([expected(exhausted), expected(beyond)]);
    expect(deadLettered.map((sent) => sent.delaySeconds)).toEqual([undefined, undefined]);
    expect(Object.keys(retried[2]!.message)).not.toContain("observerId");
  });

  it("sends data too large for one message as several, each with the same delay", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1);
    const { testEnv, retried, deadLettered } = queues();
    const owed = data(2500, "cpu", "r".repeat(80));

    await settleUndelivered(testEnv, settings, [undelivered("o1", 2, owed)]);

    expect(retried.map((sent) => [sent.message.observerId, sent.message.attempts, sent.delaySeconds])).toEqual([
      ["o1", 2, 20],
      ["o1", 2, 20],
      ["o1", 2, 20],
    ]);
    expect(retried.flatMap((sent) => rowsToData("cpu", sent.message.rows))).toEqual(owed);
    expect(deadLettered).toEqual([]);
  });

  it("sends nothing when everything was delivered", async () => {
    const { testEnv, retried, deadLettered } = queues();
    await settleUndelivered(testEnv, settings, []);
    expect([retried, deadLettered]).toEqual([[], []]);
  });
});
