import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessGroup } from "../../runtime/process-accounting.ts";
import type { BenchContext } from "../../sections/section.ts";
import { calibrationReads, meterHandOver } from "./leased-hand-over.ts";

const readSpinMs = 40;

/**
 * A service whose summary counts `step` more data of `fleet_a` at each read after the metering's
 * calibration reads, up to `upTo`, beside another metric's.
 */
async function summaryService(step: number, upTo: number) {
  let reads = 0;
  const server = createServer((_, response) => {
    reads += 1;
    // Each read costs this process some CPU, as a read of a thousand metrics' summary costs the Worker.
    const spinUntil = performance.now() + readSpinMs;
    while (performance.now() < spinUntil);
    const metrics = [
      { id: "fleet_a", dataAccepted: Math.min(Math.max(0, reads - calibrationReads) * step, upTo) },
      { id: "other", dataAccepted: 1_000 },
    ];
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ metrics }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const self = new ProcessGroup("this process", [{ pid: process.pid, comm: "node", cmdline: "" }]);
  const bench = {
    serviceUrl: `http://127.0.0.1:${port}`,
    processes: { worker: self, relay: self, bench: self },
  } as unknown as BenchContext;
  return { bench, reads: () => reads, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("meterHandOver", () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
  });

  it("meters from a second before the leases end until the summary counts every datum of the metrics named", async () => {
    const service = await summaryService(50, 100);
    close = service.close;
    const leasedAt = performance.now();

    const handOver = await meterHandOver(service.bench, "fleet_", 100, leasedAt, 1_300);

    // Not before the lease's end less a second; then until the second read counted all 100.
    expect(performance.now() - leasedAt).toBeGreaterThanOrEqual(300);
    expect(service.reads()).toBe(calibrationReads + 2);
    expect(handOver.reads).toBe(2);
    expect(handOver.seconds).toBeGreaterThan(0.2);
    // What a read costs was measured, and the metering's two reads were taken out of its CPU.
    expect(handOver.readCpu.worker).toBeGreaterThanOrEqual((0.75 * readSpinMs) / 1000);
    expect(handOver.cpu.worker).toBeGreaterThanOrEqual(0);
    expect(handOver.cpu.worker).toBeLessThan((1.5 * readSpinMs) / 1000);
  });

  it("gives up, saying so, when the metrics are never told everything", async () => {
    const service = await summaryService(10, 50);
    close = service.close;

    await expect(meterHandOver(service.bench, "fleet_", 100, performance.now() - 5_000, 1_000, 300)).rejects.toThrow(
      "were not told all 100 data",
    );
  });
});
