import { combined, type LoadOptions, type LoadResult, type Measured, runLoad } from "../load/closed-loop.ts";
import { formatLine, measuredDatum } from "../load/line-protocol.ts";
import { rdfJsonBodies } from "../load/requests/rdf-json-bodies.ts";
import { drainBacklog } from "../load/rounds/delivery-case.ts";
import type { InfluxDbUnderTest } from "../load/systems/influxdb.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import type { ProcessRole } from "../runtime/process-accounting.ts";
import { clockTicksPerSecond, cpuMeter } from "../runtime/process-accounting.ts";
import type { BenchSection } from "./section.ts";

/** Distinct InfluxDB write bodies of `size` points each (line protocol), over the bench's 1,000 resources. */
export function lineBodies(count: number, size: number, metric: string): string[] {
  const timestamp = Date.now();
  return Array.from({ length: count }, (_, request) =>
    Array.from({ length: size }, (_, index) =>
      formatLine(metric, measuredDatum(request * size + index, timestamp + index)),
    ).join(""),
  );
}

/** How long each JSON.parse measurement parses one size's bodies for, unmeasured and then measured, in seconds. */
const parseWarmUpSeconds = 0.5;
const parseSeconds = 1.5;
/** Long enough for Node's HTTP client (undici) to close its idle connections, which it looks at every second. */
const idleConnectionsClosedMs = 1_500;

/**
 * Data/s that JSON.parse reads out of `requestBodies` (of `size` data each) in this process, on
 * its one thread: whole passes over the bodies for about `seconds`, after `warmUpSeconds` of
 * unmeasured ones (the heap grows to the work meanwhile).
 */
export function jsonParseRate(
  requestBodies: readonly string[],
  size: number,
  seconds = parseSeconds,
  warmUpSeconds = parseWarmUpSeconds,
): number {
  let sink = 0;
  const passes = (forSeconds: number) => {
    let parsed = 0;
    const started = performance.now();
    let now = started;
    do {
      for (const body of requestBodies) sink += Object.keys(JSON.parse(body)).length;
      parsed += requestBodies.length;
      now = performance.now();
    } while (now - started < forSeconds * 1000);
    return { parsed, seconds: (now - started) / 1000 };
  };
  const warmUp = passes(warmUpSeconds);
  const measured = passes(seconds);
  // Every body holds its data: a sum that disagrees means a body was not what it was said to be.
  if (sink !== (warmUp.parsed + measured.parsed) * size) throw new Error(`bodies of ${size} data hold other counts`);
  return (measured.parsed * size) / measured.seconds;
}

/**
 * The ratio's two rows run in alternating rounds, so that the drift of a shared machine weighs on
 * both alike; each row's figure is its requests over its seconds, summed over the rounds.
 */
const ratioRounds = 6;

/** How long a row's data took to go through the queue after it, and the Worker's CPU seconds meanwhile. */
interface Drained {
  drainSeconds: number;
  workerSeconds: number;
}

/** How long the backlog an intake row leaves may take to drain before the next row starts. */
const backlogTimeoutSeconds = 300;

/** The rows' request sizes, and how many distinct bodies each cycles through. */
const sizes = [
  { size: 1, count: 1_000, name: "1 datum" },
  { size: 100, count: 200, name: "100 data" },
  { size: 1_000, count: 40, name: "1,000 data" },
] as const;

/** JSON.parse data/s of each size's bodies, measured just before and just after the rows. */
type ParseRates = { before: number; after: number }[];

/** InfluxDB's closed-loop write rate for each size, and its CPU time where it runs here. */
interface InfluxDbRow {
  load: LoadResult;
  cpuSeconds: number;
}

async function influxDbRows(
  influxDb: InfluxDbUnderTest,
  options: Pick<LoadOptions, "concurrency" | "seconds">,
): Promise<InfluxDbRow[]> {
  const rows: InfluxDbRow[] = [];
  for (const { size, count } of sizes) {
    const elapsed = influxDb.processes.cpuSince();
    const load = await runLoad({
      ...options,
      url: influxDb.writeUrl,
      method: "POST",
      bodies: lineBodies(count, size, "bench-intake"),
      contentType: "text/plain; charset=utf-8",
      expectedStatus: 204,
    });
    rows.push({ load, cpuSeconds: elapsed() });
  }
  return rows;
}

const microseconds = (seconds: number, count: number) => fixed((seconds * 1e6) / count, 1);
/** A ratio to a ceiling: two decimals, three below 0.1 so that a small one does not read 0.00. */
const ratio = (value: number) => fixed(value, Math.abs(value) < 0.1 ? 3 : 2);

/**
 * Closed-loop intake throughput: requests/s of GET /healthz and of POST /monitoringdata at three
 * sizes, beside the ceilings they are measured against (JSON.parse of the same bodies, InfluxDB's
 * writes of as many points), and the Worker runtime's CPU time per request and per datum.
 */
export const intakeSection: BenchSection = async ({
  settings,
  serviceUrl,
  floorUrl,
  towerEdge,
  influxDb,
  processes,
  targets,
  progress,
}) => {
  const { concurrency, seconds } = settings;
  const intake = `${serviceUrl}/monitoringdata`;
  const meter = () => cpuMeter<ProcessRole>(processes);
  const load = async (method: "GET" | "POST", url: string, requestBodies?: string[], rowSeconds = seconds) => {
    const cpu = meter();
    const result = await runLoad({
      url,
      method,
      bodies: requestBodies,
      expectedStatus: method === "GET" ? 200 : 204,
      concurrency,
      seconds: rowSeconds,
    });
    return { load: result, cpu: cpu() };
  };
  /** Waits until the data posted so far went through the queue; the Worker's CPU seconds meanwhile. */
  const drain = async (): Promise<Drained> => {
    const cpu = meter();
    const drainSeconds = await drainBacklog(towerEdge, backlogTimeoutSeconds);
    return { drainSeconds, workerSeconds: cpu().worker };
  };
  const requestBodies = sizes.map(({ size, count }) => rdfJsonBodies(count, size, "bench-intake"));
  const [single, hundred, thousand] = requestBodies as [string[], string[], string[]];
  // The measurement holds this process's event loop for seconds, so its HTTP client cannot close the
  // kept-alive connections that went idle meanwhile, which the Worker closes after 5 s idle: a pause
  // after it lets the client drop them, so that the next request does not go out on a closed one.
  const parseRates = async (): Promise<number[]> => {
    const rates = sizes.map(({ size }, index) => jsonParseRate(requestBodies[index]!, size));
    await new Promise((resolve) => setTimeout(resolve, idleConnectionsClosedMs));
    return rates;
  };

  progress("intake: warm-up");
  // Warm-up: compile paths, create the metric's object and the queue.
  await load("POST", intake, single);
  await drainBacklog(towerEdge, backlogTimeoutSeconds);

  progress("intake: JSON.parse of the rows' bodies, before");
  const parsedBefore = await parseRates();
  progress("intake: measuring");
  const roundSeconds = seconds / 2;
  const healthRounds: Measured[] = [];
  const singlePostRounds: Measured[] = [];
  const floorRounds: Measured[] = [];
  const singleDrains: Drained[] = [];
  for (let round = 0; round < ratioRounds; round++) {
    floorRounds.push(await load("GET", floorUrl, undefined, roundSeconds));
    healthRounds.push(await load("GET", `${serviceUrl}/healthz`, undefined, roundSeconds));
    singlePostRounds.push(await load("POST", intake, single, roundSeconds));
    // Through the queue before the next round: the consumer's work would otherwise run during the
    // next round's floor and /healthz, and in the Worker's own isolate during /healthz.
    singleDrains.push(await drain());
  }
  const floor = combined(floorRounds);
  const health = combined(healthRounds);
  const singlePost = combined(singlePostRounds);
  const roundRatios = singlePostRounds.map((post, round) => post.load.perSecond / healthRounds[round]!.load.perSecond);
  progress(`intake: POST/GET ratio by round ${roundRatios.map((value) => fixed(value, 2)).join(", ")}`);
  const singleDrain: Drained = {
    drainSeconds: singleDrains.reduce((total, drained) => total + drained.drainSeconds, 0),
    workerSeconds: singleDrains.reduce((total, drained) => total + drained.workerSeconds, 0),
  };
  const hundredRow = await load("POST", intake, hundred);
  const hundredDrain = await drain();
  const thousandRow = await load("POST", intake, thousand);
  progress("intake: waiting for the backlog to drain");
  const thousandDrain = await drain();
  progress("intake: JSON.parse of the rows' bodies, after");
  const parsedAfter = await parseRates();
  const parsed: ParseRates = parsedBefore.map((before, index) => ({ before, after: parsedAfter[index]! }));
  const ceiling = (index: number) => (parsed[index]!.before + parsed[index]!.after) / 2;
  let influxRows: InfluxDbRow[] | undefined;
  if (influxDb !== undefined) {
    progress(`intake: ${influxDb.name} writes`);
    influxRows = await influxDbRows(influxDb, { concurrency, seconds });
  }

  const posts = [
    { measured: singlePost, drain: singleDrain },
    { measured: hundredRow, drain: hundredDrain },
    { measured: thousandRow, drain: thousandDrain },
  ];
  const influxCells = (index: number, dataPerSecond: number) => {
    const row = influxRows?.[index];
    if (row === undefined) return ["not installed", "–"];
    const pointsPerSecond = row.load.perSecond * sizes[index]!.size;
    return [
      `${fixed(pointsPerSecond)}${row.load.errors > 0 ? ` (${fixed(row.load.errors)} errors)` : ""}`,
      ratio(dataPerSecond / pointsPerSecond),
    ];
  };
  const throughputRows = [
    [
      "the platform floor (no-op Worker)",
      fixed(floor.load.perSecond),
      "0",
      String(floor.load.errors),
      "–",
      "–",
      "–",
      "–",
    ],
    ["GET /healthz", fixed(health.load.perSecond), "0", String(health.load.errors), "–", "–", "–", "–"],
    ...posts.map(({ measured }, index) => {
      const dataPerSecond = measured.load.perSecond * sizes[index]!.size;
      return [
        `POST /monitoringdata, ${sizes[index]!.name}`,
        fixed(measured.load.perSecond),
        fixed(dataPerSecond),
        String(measured.load.errors),
        fixed(ceiling(index)),
        ratio(dataPerSecond / ceiling(index)),
        ...influxCells(index, dataPerSecond),
      ];
    }),
  ];
  const cores = (cpuSeconds: number, wallSeconds: number) => fixed(cpuSeconds / wallSeconds, 2);
  const influxCpu = (index: number) => {
    const row = influxRows?.[index];
    if (row === undefined || influxDb === undefined) return "not installed";
    return influxDb.processes.processes.length === 0
      ? "not on this machine"
      : microseconds(row.cpuSeconds, row.load.requests * sizes[index]!.size);
  };
  const cpuRows = [
    [
      "GET /healthz",
      cores(health.cpu.worker, health.load.seconds),
      microseconds(health.cpu.worker, health.load.requests),
      "–",
      "–",
      cores(health.cpu.bench, health.load.seconds),
      "–",
    ],
    ...posts.map(({ measured, drain: drained }, index) => {
      const data = measured.load.requests * sizes[index]!.size;
      return [
        `POST /monitoringdata, ${sizes[index]!.name}`,
        cores(measured.cpu.worker, measured.load.seconds),
        microseconds(measured.cpu.worker, measured.load.requests),
        microseconds(measured.cpu.worker, data),
        microseconds(measured.cpu.worker + drained.workerSeconds, data),
        cores(measured.cpu.bench, measured.load.seconds),
        influxCpu(index),
      ];
    }),
  ];

  const postRatio = singlePost.load.perSecond / health.load.perSecond;
  const healthToFloor = health.load.perSecond / floor.load.perSecond;
  const postToFloor = singlePost.load.perSecond / floor.load.perSecond;
  targets.record("healthz-vs-floor", {
    measured: `${fixed(healthToFloor, 2)} (${fixed(health.load.perSecond)} ÷ ${fixed(floor.load.perSecond)} req/s)`,
    met: healthToFloor >= 0.9,
  });
  targets.record("single-post-vs-floor", {
    measured: `${fixed(postToFloor, 2)} (${fixed(singlePost.load.perSecond)} ÷ ${fixed(floor.load.perSecond)} req/s)`,
    met: postToFloor >= 0.5,
  });
  const thousandData = thousandRow.load.perSecond * 1_000;
  const headline = thousandData / ceiling(2);
  const thousandAccepted = thousandRow.load.requests * 1_000;
  const thousandCpu = (thousandRow.cpu.worker + thousandDrain.workerSeconds) / thousandAccepted;
  targets.record("intake-vs-json-parse", {
    measured: `${fixed(headline, 2)} (${fixed(thousandData)} ÷ ${fixed(ceiling(2))} data/s)`,
    met: headline >= 0.8,
  });
  targets.record("single-datum-post", {
    measured: `${fixed(singlePost.load.perSecond)} req/s, ${fixed(postRatio, 2)} × \`/healthz\``,
    met: singlePost.load.perSecond >= 2_500 && postRatio >= 0.9,
  });
  targets.record("cpu-per-accepted-datum", {
    measured:
      `${fixed(thousandCpu * 1e6, 1)} µs (${microseconds(thousandRow.cpu.worker, thousandAccepted)} µs ` +
      "while the requests ran)",
    met: thousandCpu * 1e6 <= 5,
  });
  const drainSeconds = posts.map(({ drain: drained }) => fixed(drained.drainSeconds, 1));
  return [
    `Intake: closed loop of ${concurrency} clients, ${seconds} s per row; the first three rows alternate in ` +
      `${ratioRounds} rounds of ${fixed(roundSeconds, 1)} s each, and each round's single-datum data go through ` +
      `the queue before the next round starts (its figure sums the rounds' drains). The platform floor: a one-line Worker that ` +
      "answers every request at once, in a workerd of its own under Miniflare, reached on its own socket as the " +
      "Worker is; its CPU is not counted as the Worker's. Ceilings beside each row: JSON.parse of the " +
      `very bodies the row sends, in this (the bench's) process on one core, ${parseSeconds} s per size (after ` +
      `${parseWarmUpSeconds} s unmeasured) just before ` +
      "and just after the rows (the ceiling is the mean of the two); and, where InfluxDB runs, the same closed " +
      "loop writing as many points per request to it (POST /write, line protocol). Worker CPU: the utime + stime " +
      `of ${processes.worker.describe()} in /proc (the kernel's accounting, ${fixed(1000 / clockTicksPerSecond())} ms ticks), ` +
      'read before and after each row ("cores" is CPU seconds per second of the row); "with its consumption" ' +
      "adds the CPU used after the row until its data were through the queue (a probe datum posted then reached " +
      "an observer of another metric), the consumer's share. The bench's own CPU is its Node process's; " +
      `InfluxDB's that of ${influxDb === undefined ? "influxd (not running)" : influxDb.processes.describe()}.`,
    "",
    ...markdownTable(
      [
        "intake",
        "requests/s",
        "data/s",
        "errors",
        "JSON.parse data/s (one core)",
        "÷ JSON.parse",
        `${influxDb?.name ?? "InfluxDB"} points/s`,
        "÷ InfluxDB",
      ],
      throughputRows,
    ),
    "",
    ...markdownTable(
      [
        "intake",
        "Worker CPU, cores",
        "Worker CPU µs per request",
        "Worker CPU µs per datum",
        "with its consumption",
        "bench CPU, cores",
        "InfluxDB CPU µs per point",
      ],
      cpuRows,
    ),
    "",
    `Accepted data/s of 1,000-datum requests ÷ JSON.parse of the same bodies: **${fixed(headline, 2)}** (target ≥ 0.8).`,
    "",
    `Requests/s ÷ the platform floor: GET /healthz **${fixed(healthToFloor, 2)}** (target ≥ 0.9), single-datum ` +
      `POST **${fixed(postToFloor, 2)}** (target ≥ 0.5).`,
    "",
    `Single-datum POST / GET /healthz requests/s ratio: **${fixed(postRatio, 2)}** ` +
      `(rounds from ${fixed(Math.min(...roundRatios), 2)} to ${fixed(Math.max(...roundRatios), 2)})`,
    "",
    `JSON.parse data/s before / after the rows: ${sizes
      .map(({ name }, index) => `${name} ${fixed(parsed[index]!.before)} / ${fixed(parsed[index]!.after)}`)
      .join("; ")}. After each POST row its data were through the queue in ${drainSeconds.join(", ")} s.`,
  ];
};
