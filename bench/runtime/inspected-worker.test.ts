import { expect, it } from "vitest";
import { withInspectedWorker } from "./inspected-worker.ts";
import { connectWorkerHeap } from "./isolate-heaps.ts";

it("runs a Worker of its own whose workerd and isolate's heap can be read", async () => {
  await withInspectedWorker("test", {}, async ({ serviceUrl, inspectorPort, runtime }) => {
    expect((await fetch(`${serviceUrl}/healthz`)).status).toBe(200);
    expect(runtime.pids).toHaveLength(1);
    const heap = await connectWorkerHeap(inspectorPort, "tower-edge");
    try {
      const usage = await heap.usage();
      expect(usage.used).toBeGreaterThan(0);
      expect(usage.total).toBeGreaterThanOrEqual(usage.used);
      const live = await heap.live();
      expect(live).toBeGreaterThan(0);
      expect(live).toBeLessThanOrEqual(usage.total);
    } finally {
      heap.close();
    }
  });
}, 120_000);
