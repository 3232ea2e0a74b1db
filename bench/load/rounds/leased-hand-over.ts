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
/**
 * Reads of the summary made before the leases end, to learn what one costs: the metering's own
 * reads are the bench's work, not the hand-over's, and are taken out of what it meters.
 */
export const calibrationReads = 4;

/** The data the summary shows accepted by the metrics whose names start with `prefix`. */
async function acceptedByPrefix(serviceUrl: string, prefix: string): Promise<number> {
  const response = await fetch(`${serviceUrl}/v1/summary`);
  if (!response.ok) throw new Error(`GET /v1/summary answered ${response.status}`);
  const { metrics } = (await response.json()) as { metrics: { id: string; dataAccepted: number }[] };
  return metrics.filter(({ id }) => id.startsWith(prefix)).reduce((total, { dataAccepted }) => total + dataAccepted, 0);
}

export interface HandOver {
  /** CPU seconds by process, less the metering's reads of the summary. */
  cpu: Record<ProcessRole, number>;
  seconds: number;
  /** The summary reads made while metering, and what one costs (CPU seconds by process). */
  reads: number;
  readCpu: Record<ProcessRole, number>;
}

const perRole = (cpu: Record<ProcessRole, number>, map: (seconds: number, role: ProcessRole) => number) =>
  Object.fromEntries(Object.entries(cpu).map(([role, seconds]) => [role, map(seconds, role as ProcessRole)])) as Record<
    ProcessRole,
    number
  >;

/**
 * Waits until the leases asked for at `leasedAt` (performance.now() of this process) have ended,
 * less a second, then meters the CPU until the summary, which the metrics' objects' answers feed,
 * shows `expected` data accepted by the metrics named `prefix…`: each object was told what it was
 * owed. What those reads of the summary cost, as measured by reads made before, is taken out.
 * Throws when that has not happened `timeoutMs` after the leases ended.
 */
export async function meterHandOver(
  { serviceUrl, processes }: BenchContext,
  prefix: string,
  expected: number,
  leasedAt: number,
  leaseMs: number,
  timeoutMs = 60_000,
): Promise<HandOver> {
  const calibration = cpuMeter<ProcessRole>(processes);
  for (let read = 0; read < calibrationReads; read++) await acceptedByPrefix(serviceUrl, prefix);
  const readCpu = perRole(calibration(), (seconds) => seconds / calibrationReads);
  await sleep(Math.max(0, leasedAt + leaseMs - leadMs - performance.now()));
  const meter = cpuMeter<ProcessRole>(processes);
  const started = performance.now();
  let reads = 1;
  while ((await acceptedByPrefix(serviceUrl, prefix)) < expected) {
    if (performance.now() - started > leadMs + timeoutMs) {
      throw new Error(`the metrics named ${prefix}… were not told all ${expected} data they accepted`);
    }
    await sleep(pollMs);
    reads += 1;
  }
  const cpu = perRole(meter(), (seconds, role) => Math.max(0, seconds - reads * readCpu[role]));
  return { cpu, seconds: (performance.now() - started) / 1000, reads, readCpu };
}
