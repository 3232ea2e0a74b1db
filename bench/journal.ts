import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalWorker } from "../tools/start/local-worker.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { drainBacklog } from "./delivery.ts";
import { bodies, combined, type Measured } from "./intake.ts";
import { runLoad } from "./load.ts";
import { fixed, markdownTable } from "./markdown.ts";
import { cpuMeter, findDescendants, ProcessGroup } from "./process-accounting.ts";
import type { BenchSection, ProcessRole } from "./section.ts";
import type { SystemUnderTest } from "./system-under-test.ts";
import { towerEdge } from "./tower-edge.ts";

/** The two rows' request sizes, and how many distinct bodies each cycles through. */
const sizes = [
  { size: 1, count: 1_000, name: "1 datum" },
  { size: 1_000, count: 40, name: "1,000 data" },
] as const;

/** Journal off and on alternate in rounds, so that the drift of a shared machine weighs on both alike. */
const rounds = 4;
const backlogTimeoutSeconds = 300;

/** A Worker the rows post to, and its runtime's processes. */
interface JournalService {
  url: string;
  system: SystemUnderTest;
  runtime: ProcessGroup;
}

const signed = (value: number, digits: number) => `${value >= 0 ? "+" : "−"}${fixed(Math.abs(value), digits)}`;

/** A row measured, and the Worker CPU seconds its consumption took afterwards. */
export interface JournalRow {
  measured: Measured;
  consumptionSeconds: number;
}

/** Worker CPU µs per request and per datum of a row, while it ran and with its consumption. */
export function cpuCost(row: JournalRow, size: number) {
  const { requests } = row.measured.load;
  const { worker } = row.measured.cpu;
  return {
    perRequest: (worker * 1e6) / requests,
    perDatum: (worker * 1e6) / (requests * size),
    perDatumConsumed: ((worker + row.consumptionSeconds) * 1e6) / (requests * size),
  };
}

/** What the journal adds: on minus off, in µs of Worker CPU, and the ratio of requests/s. */
export function journalCost(off: JournalRow, on: JournalRow, size: number) {
  const [without, withJournal] = [cpuCost(off, size), cpuCost(on, size)];
  return {
    perRequest: withJournal.perRequest - without.perRequest,
    perDatum: withJournal.perDatum - without.perDatum,
    perDatumConsumed: withJournal.perDatumConsumed - without.perDatumConsumed,
    throughputRatio: on.measured.load.perSecond / off.measured.load.perSecond,
  };
}

/**
 * The intake journal's cost (INTAKE_JOURNAL, which `npm start` turns on): single-datum and
 * 1,000-datum requests to the bench's Worker (journal off, as deployed) and to a second one that
 * journals, each in a workerd of its own whose CPU is counted apart.
 */
export const journalSection: BenchSection = async ({
  settings,
  serviceUrl,
  towerEdge: system,
  processes,
  progress,
}) => {
  const { concurrency, seconds } = settings;
  progress("journal: starting a Worker with INTAKE_JOURNAL on");
  const known = new Set(findDescendants(process.pid, (child) => child.comm === "workerd").map(({ pid }) => pid));
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-bench-journal-"));
  const journaled = await startLocalWorker({
    port: await freePort(),
    stateDir,
    verbose: false,
    build: false,
    bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true", INTAKE_JOURNAL: "true" },
  });
  const journaledSystem = towerEdge(journaled.url);
  const journaledRuntime = new ProcessGroup(
    "workerd (journal on)",
    findDescendants(process.pid, (child) => child.comm === "workerd" && !known.has(child.pid)),
  );
  const services: Record<"off" | "on", JournalService> = {
    off: { url: serviceUrl, system, runtime: processes.worker },
    on: { url: journaled.url, system: journaledSystem, runtime: journaledRuntime },
  };
  try {
    const measure = async (service: JournalService, requestBodies: string[], rowSeconds: number) => {
      const cpu = cpuMeter<ProcessRole>({ ...processes, worker: service.runtime });
      const load = await runLoad({
        url: `${service.url}/monitoringdata`,
        method: "POST",
        bodies: requestBodies,
        expectedStatus: 204,
        concurrency,
        seconds: rowSeconds,
      });
      return { load, cpu: cpu() };
    };
    const consume = async (service: JournalService) => {
      const cpu = service.runtime.cpuSince();
      await drainBacklog(service.system, backlogTimeoutSeconds);
      return cpu();
    };
    progress("journal: warm-up");
    for (const service of [services.off, services.on]) {
      await measure(service, bodies(10, 1, "bench-journal"), 1);
      await consume(service);
    }
    const rows = [];
    for (const { size, count, name } of sizes) {
      progress(`journal: ${name}`);
      const requestBodies = bodies(count, size, "bench-journal");
      const off: Measured[] = [];
      const on: Measured[] = [];
      for (let round = 0; round < rounds; round++) {
        off.push(await measure(services.off, requestBodies, seconds / rounds));
        on.push(await measure(services.on, requestBodies, seconds / rounds));
      }
      rows.push({
        size,
        name,
        off: { measured: combined(off), consumptionSeconds: await consume(services.off) },
        on: { measured: combined(on), consumptionSeconds: await consume(services.on) },
      });
    }
    const tableRows = rows.flatMap(({ size, name, off, on }) =>
      (
        [
          ["off", off],
          ["on", on],
        ] as const
      ).map(([state, row]) => {
        const cost = cpuCost(row, size);
        return [
          `POST /monitoringdata, ${name}`,
          state,
          fixed(row.measured.load.perSecond),
          fixed(row.measured.load.perSecond * size),
          String(row.measured.load.errors),
          fixed(cost.perRequest, 1),
          fixed(cost.perDatum, 2),
          fixed(cost.perDatumConsumed, 2),
        ];
      }),
    );
    const costs = rows.map(({ size, name, off, on }) => {
      const cost = journalCost(off, on, size);
      return (
        `${name}: ${signed(cost.perRequest, 1)} µs per request, ${signed(cost.perDatum, 2)} µs per datum ` +
        `(${signed(cost.perDatumConsumed, 2)} with its consumption), requests/s × ${fixed(cost.throughputRatio, 2)}`
      );
    });
    return [
      `Intake journal (INTAKE_JOURNAL, on under \`npm start\` and \`npm run dev\`, off as deployed): closed loop of ` +
        `${concurrency} clients, ${seconds} s per row in ${rounds} alternating rounds, to the bench's Worker ` +
        "(journal off) and to a second one that journals (on), each in a workerd of its own whose CPU (utime + " +
        "stime in /proc) is counted apart. With the journal, each send of the intake's group commit also writes its " +
        "messages to one of 16 Durable Object shards, and each consumer batch clears them, one request per shard " +
        '("with its consumption" adds the Worker CPU used until the row\'s data were through the queue).',
      "",
      ...markdownTable(
        [
          "intake",
          "journal",
          "requests/s",
          "data/s",
          "errors",
          "Worker CPU µs per request",
          "Worker CPU µs per datum",
          "with its consumption",
        ],
        tableRows,
      ),
      "",
      `What the journal adds (on − off): ${costs.join("; ")}.`,
    ];
  } finally {
    await journaledSystem.close();
    await journaled.dispose();
    await rm(stateDir, { recursive: true, force: true });
  }
};
