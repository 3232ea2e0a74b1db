import { setTimeout as sleep } from "node:timers/promises";
import { cpuMeter, type ProcessRole } from "../../runtime/process-accounting.ts";
import type { BenchContext } from "../../sections/section.ts";

/*
 * The part of a fleet's cost that comes after its data were delivered: a metric that only selector
 * observers follow leases its plan to the consumer, and the data consumed under the lease reach the
 * metric's object (its counts, its recent data) when the lease has ended, through the summary
 * shard's alarm (src/worker/summary/pending-intake.ts). A measurement that ends with the
 * deliveries leaves that hand-over out; this meters it.
 */

const pollMs = 250;
/** Metering starts this long before the leases end, so that no part of the hand-over is missed. */
const leadMs = 1_000;

/** The data the summary shows accepted by the metrics whose names start with `prefix`. */
async function acceptedByPrefix(serviceUrl: string, prefix: string): Promise<number> {
  const response = await fetch(`${serviceUrl}/v1/summary`);
  if (!response.ok) throw new Error(`GET /v1/summary answered ${response.status}`);
  const { metrics } = (await response.json()) as { metrics: { id: string; dataAccepted: number }[] };
  return metrics.filter(({ id }) => id.startsWith(prefix)).reduce((total, { dataAccepted }) => total + dataAccepted, 0);
}

export interface HandOver {
  cpu: Record<ProcessRole, number>;
  seconds: number;
}

/**
 * Waits until the leases asked for at `leasedAt` (performance.now() of this process) have ended,
 * less a second, then meters the CPU until the summary, which the metrics' objects' answers feed,
 * shows `expected` data accepted by the metrics named `prefix…`: each object was told what it was
 * owed. Throws when that has not happened `timeoutMs` after the leases ended.
 */
export async function meterHandOver(
  { serviceUrl, processes }: BenchContext,
  prefix: string,
  expected: number,
  leasedAt: number,
  leaseMs: number,
  timeoutMs = 60_000,
): Promise<HandOver> {
  await sleep(Math.max(0, leasedAt + leaseMs - leadMs - performance.now()));
  const meter = cpuMeter<ProcessRole>(processes);
  const started = performance.now();
  while ((await acceptedByPrefix(serviceUrl, prefix)) < expected) {
    if (performance.now() - started > leadMs + timeoutMs) {
      throw new Error(`the metrics named ${prefix}… were not told all ${expected} data they accepted`);
    }
    await sleep(pollMs);
  }
  return { cpu: meter(), seconds: (performance.now() - started) / 1000 };
}
