import { expect, it } from "vitest";
import { withInspectedWorker } from "./inspected-worker.ts";
import { connectIsolateHeaps } from "./isolate-heaps.ts";

it("runs a Worker of its own whose workerd and isolates' heaps can be read", async () => {
  await withInspectedWorker("test", {}, async ({ serviceUrl, inspectorPort, runtime }) => {
    expect((await fetch(`${serviceUrl}/healthz`)).status).toBe(200);
    expect(runtime.pids).toHaveLength(1);
    expect(runtime.residentBytes()).toBeGreaterThan(0);
    const heaps = await connectIsolateHeaps(inspectorPort, "tower-edge");
    try {
      const usage = await heaps.read();
      expect(usage.worker.used).toBeGreaterThan(0);
      expect(usage.worker.total).toBeGreaterThanOrEqual(usage.worker.used);
      expect(usage.queue.used).toBeGreaterThan(0);
      const live = await heaps.live();
      expect(live.worker).toBeGreaterThan(0);
      expect(live.worker).toBeLessThanOrEqual(usage.worker.total);
    } finally {
      heaps.close();
    }
  });
}, 120_000);
