import { createExecutionContext, createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { replaceMetricObject } from "../../../test/api/support/metric-objects";
import { usage } from "../common/usage";
import worker from "../index";
import { encodeIntakeMessages } from "../intake/queue-message";
import {
  acceptingIntake,
  consumingBatch,
  drainProgress,
  intakeMessagesAcknowledged,
  isDraining,
  startDraining,
} from "./drain";

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("drain", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("counts the batches under way, also one that fails, and every batch started", async () => {
    const startedBefore = drainProgress().batchesStarted;
    const { opened, open } = gate();
    const first = consumingBatch(() => opened.then(() => "done"));
    const second = consumingBatch(() => Promise.reject(new Error("consumer failed")));
    expect(drainProgress().batchesInFlight).toBe(2);
    expect(drainProgress().batchesStarted).toBe(startedBefore + 2);

    await expect(second).rejects.toThrow("consumer failed");
    expect(drainProgress().batchesInFlight).toBe(1);
    open();
    expect(await first).toBe("done");
    expect(drainProgress().batchesInFlight).toBe(0);
    expect(drainProgress().batchesStarted).toBe(startedBefore + 2);
  });

  it("waits for the intake messages this isolate queued and no consumer acknowledged, and counts those queued", () => {
    const before = drainProgress().intakeMessagesInFlight;
    const writtenBefore = drainProgress().intakeMessagesWritten;
    usage.queueMessagesWritten += 3;
    usage.queueMessagesRead += 3;
    intakeMessagesAcknowledged(1);
    expect(drainProgress().intakeMessagesWritten).toBe(writtenBefore + 3);
    expect(drainProgress().intakeMessagesInFlight).toBe(before + 2);
    intakeMessagesAcknowledged(2);
    expect(drainProgress().intakeMessagesInFlight).toBe(before);
    usage.queueMessagesWritten -= 3;
    usage.queueMessagesRead -= 3;
  });

  it("counts an intake request from its draining check until it is answered", async () => {
    const { opened, open } = gate();
    const accepted = acceptingIntake(() => opened);
    expect(drainProgress().intakeRequestsInFlight).toBe(1);
    open();
    await accepted;
    expect(drainProgress().intakeRequestsInFlight).toBe(0);
  });

  it("sees a queue batch of the Worker under way until it is consumed, and counts its messages read", async () => {
    const { opened, open } = gate();
    replaceMetricObject("drain.slow", {
      deliveryPlan: () => opened.then(() => ({ observers: [], selectors: [], ruleReaders: [] })),
    });
    const bodies = encodeIntakeMessages([
      { id: "d1", metric: "drain.slow", timestamp: 1, value: 1, resourceId: "vm1" },
    ]);
    const batch = createMessageBatch(
      "tower-intake",
      bodies.map((body, index) => ({ id: `m${index}`, timestamp: new Date(), attempts: 1, body })),
    );
    const read = usage.queueMessagesRead;

    const consumed = (worker as ExportedHandler<Env>).queue!(batch, env, createExecutionContext());
    expect(drainProgress().batchesInFlight).toBe(1);
    expect(usage.queueMessagesRead - read).toBe(1);
    open();
    await consumed;
    expect(drainProgress().batchesInFlight).toBe(0);
  });

  it("drains once told to, and from then on", () => {
    expect(isDraining()).toBe(false);
    expect(drainProgress().draining).toBe(false);
    startDraining();
    expect(isDraining()).toBe(true);
    expect(drainProgress().draining).toBe(true);
  });
});
