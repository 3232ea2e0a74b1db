import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type IntakeMessage, readIntakeMessage } from "../intake/queue-message-bytes";
import { knowledgeBase } from "../model/knowledge-base";
import { type DatumRow, seriesLabels } from "../vocabulary/datum";
import { ruleSchema } from "./document/rule-schema";

function rule(id: string, fields: Record<string, unknown> = {}) {
  return ruleSchema.parse({
    id,
    timeStep: 1,
    timeWindow: 1,
    allowedLatenessSeconds: 0,
    monitoredTargets: [{ class: "VM" }],
    collectedMetric: { metricName: "Cpu" },
    metricAggregation: { aggregateFunction: "Sum", groupingClass: "VM" },
    actions: [{ name: "OutputMetric", parameters: { metric: `${id}.output` } }],
    ...fields,
  });
}

async function installed(id: string, fields: Record<string, unknown> = {}, enabled = true) {
  const stub = env.RULE.getByName(id);
  await stub.install(rule(id, fields), enabled);
  return stub;
}

function rows(timestamp: number, ...values: number[]): DatumRow[] {
  return values.map((value, index) => [`d${timestamp}-${index}`, timestamp, value, "vm1"]);
}

/** A timestamp in a window that closes about a second from now. */
const inOpenWindow = () => Math.floor(Date.now() / 1000) * 1000 + 1_000;

describe("RuleObject", () => {
  beforeAll(async () => {
    await knowledgeBase(env).replaceModel([
      { at: "/cloudProviders/0", resource: { clazz: "CloudProvider", id: "cloud", type: "IaaS" } },
      { at: "/vMs/0", resource: { clazz: "VM", id: "vm1", type: "Frontend", cloudProvider: "cloud", numberOfCPUs: 1 } },
    ]);
  });

  it("takes a message once, however often the queue delivers it", async () => {
    const stub = await installed("once");
    const message = { messageId: "m1", rows: rows(inOpenWindow(), 1, 2, 3) };
    expect(await stub.feed("Cpu", [message])).toBe("fed");
    expect(await stub.feed("Cpu", [message, { messageId: "m2", rows: rows(inOpenWindow(), 4) }])).toBe("fed");
    expect(await stub.status()).toMatchObject({ dataRead: 4, dataLate: 0 });
  });

  it("counts data whose windows have closed as late, and keeps nothing of them", async () => {
    const stub = await installed("late");
    await stub.feed("Cpu", [{ messageId: "old", rows: rows(Date.now() - 10_000, 5, 6) }]);
    expect(await stub.status()).toMatchObject({ dataRead: 0, dataLate: 2 });
    const panes = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT * FROM pane").toArray());
    expect(panes).toEqual([]);
  });

  it("keeps nothing while disabled, and starts afresh when enabled", async () => {
    const stub = await installed("switched", {}, false);
    await stub.feed("Cpu", [{ messageId: "while-disabled", rows: rows(inOpenWindow(), 1) }]);
    expect(await stub.status()).toMatchObject({ enabled: false, dataRead: 0 });
    await stub.setEnabled(true);
    await stub.feed("Cpu", [{ messageId: "enabled", rows: rows(inOpenWindow(), 1) }]);
    expect(await stub.status()).toMatchObject({ enabled: true, dataRead: 1 });
    await stub.setEnabled(false);
    const panes = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT * FROM pane").toArray());
    expect(panes).toEqual([]);
  });

  it("passes an agent's datum through to the intake queue with its labels, but its line", async () => {
    // Each body read before it goes on to the queue (which takes its buffer): other files' background sends pass as they would.
    const queue = env.INTAKE_QUEUE;
    const sendOn = queue.send.bind(queue);
    const sent: IntakeMessage[] = [];
    const send = vi.spyOn(queue, "send").mockImplementation((body, options) => {
      sent.push(readIntakeMessage(body));
      return sendOn(body, options);
    });
    try {
      const stub = await installed("passing", { metricAggregation: undefined });
      const labels = seriesLabels([["host", "vm1"]], ["cpu", "usage", "integer"]);
      const at = Date.now();
      const fed: DatumRow[] = [
        ["a", at, 7, "vm1", labels],
        ["b", at, 8, "vm1"],
      ];
      expect(await stub.feed("Cpu", [{ messageId: "p", rows: fed }])).toBe("fed");
      const output = sent.flatMap(({ metrics }) => metrics).filter(([metric]) => metric === "passing.output");
      expect(output).toEqual([
        [
          "passing.output",
          [
            ["passing/a", at, 7, "vm1", { pairs: [["host", "vm1"]] }],
            ["passing/b", at, 8, "vm1"],
          ],
        ],
      ]);
    } finally {
      send.mockRestore();
    }
  });

  it("answers an unknown rule so that the metric stops listing it", async () => {
    expect(await env.RULE.getByName("never-installed").feed("Cpu", [{ messageId: "x", rows: [] }])).toBe(
      "unknown-rule",
    );
    const removed = await installed("removed");
    await removed.remove();
    expect(await removed.feed("Cpu", [{ messageId: "y", rows: rows(inOpenWindow(), 1) }])).toBe("unknown-rule");
    expect(await removed.status()).toBeNull();
  });

  it("closes a window on its own alarm once the clock passed its end, and drops its panes", async () => {
    const stub = await installed("closing");
    const timestamp = inOpenWindow() - 1_000;
    await stub.feed("Cpu", [{ messageId: "w", rows: rows(timestamp, 1.5, 2.5) }]);

    await vi.waitFor(async () => expect(await stub.status()).toMatchObject({ windowsEvaluated: 1 }), {
      timeout: 5_000,
    });
    expect(await stub.status()).toMatchObject({ dataRead: 2, dataEmitted: 1, lastError: null });
    const panes = await runInDurableObject(stub, (_, state) => state.storage.sql.exec("SELECT * FROM pane").toArray());
    expect(panes).toEqual([]);
  });

  it("evaluates a sliding window's data in every window that holds them", async () => {
    const stub = await installed("sliding", { timeStep: 1, timeWindow: 2 });
    const timestamp = inOpenWindow() - 1_000;
    await stub.feed("Cpu", [{ messageId: "s", rows: rows(timestamp, 4) }]);

    // The pane is in the window ending one step after it and in the one ending two steps after.
    await vi.waitFor(async () => expect(await stub.status()).toMatchObject({ windowsEvaluated: 2 }), {
      timeout: 6_000,
    });
    expect(await stub.status()).toMatchObject({ dataRead: 1, dataEmitted: 2, lastError: null });
  });
});
