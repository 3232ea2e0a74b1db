import { otlpRequests, remoteWriteRequests, telegrafCpuBodies, telegrafRequests } from "./agent-requests.ts";
import { keptAliveAgent, send } from "./http-client.ts";
import type { InfluxDbUnderTest } from "./influxdb.ts";
import { type IntakeRequests, postRequests, rdfJsonRequests } from "./intake-requests.ts";
import type { LoadResult } from "./load.ts";
import { fixed, markdownTable } from "./markdown.ts";
import { readUsage, type Usage } from "./platform-operations.ts";
import { cpuMeter } from "./process-accounting.ts";
import type { BenchContext, BenchSection, ProcessRole } from "./section.ts";

/*
 * The agents' ways in, at the sizes their clients send, each measured as a closed loop of a few
 * clients (a few agents, each sending its next batch once the last was answered), beside RDF/JSON's
 * batches and InfluxDB's own /write of the same line-protocol bodies.
 */

/** A few agents sending at once. */
const agentClients = 4;
/** Distinct bodies each row cycles through. */
const bodiesPerRow = 8;
const warmUpSeconds = 1;
/** How long the data a row accepted may take to go through the queue. */
const consumerTimeoutSeconds = 300;
const usagePollMs = 250;
/** Polls in a row that must find the counts unchanged before the consumer counts as done. */
const quietPolls = 3;
/** How many times a request is posted alone to see the Durable Object requests of its intake. */
const intakeProbeAttempts = 5;

/** The operations per 1,000 accepted data the section reports. */
const operations = [
  ["queue messages written", "queueMessagesWritten"],
  ["queue messages read", "queueMessagesRead"],
  ["Durable Object requests", "durableObjectRequests"],
] as const satisfies readonly [string, keyof Usage][];
type Operation = (typeof operations)[number][1];

/**
 * Whether the consumer is done with everything queued so far: every message written has been read
 * (a retried one is read again) and no count moved since the previous reading.
 */
export function consumerDone(previous: Usage, current: Usage): boolean {
  return (
    current.queueMessagesRead >= current.queueMessagesWritten &&
    current.queueMessagesRead === previous.queueMessagesRead &&
    current.queueMessagesWritten === previous.queueMessagesWritten &&
    current.durableObjectRequests === previous.durableObjectRequests &&
    current.dataAccepted === previous.dataAccepted
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The usage counts once the consumer is done (see consumerDone) over `quietPolls` readings. */
async function afterConsumer(serviceUrl: string): Promise<Usage> {
  const deadline = Date.now() + consumerTimeoutSeconds * 1000;
  let previous = await readUsage(serviceUrl);
  for (let quiet = 0; quiet < quietPolls; ) {
    if (Date.now() > deadline) throw new Error(`the consumer was not done after ${consumerTimeoutSeconds} s`);
    await sleep(usagePollMs);
    const current = await readUsage(serviceUrl);
    quiet = consumerDone(previous, current) ? quiet + 1 : 0;
    previous = current;
  }
  return previous;
}

/** `operation`'s count per 1,000 of the data accepted between two readings. */
export function perThousandData(before: Usage, after: Usage, operation: Operation): number {
  return ((after[operation] - before[operation]) * 1_000) / (after.dataAccepted - before.dataAccepted);
}

interface AgentRow {
  name: string;
  requests: IntakeRequests;
}

interface MeasuredRow extends AgentRow {
  load: LoadResult;
  /** Data the service counted as accepted while the row ran. */
  accepted: number;
  /** CPU seconds of each process while the requests ran. */
  cpu: Record<ProcessRole, number>;
  /** The Worker's CPU seconds from the first request until the consumer was done with the row's data. */
  workerWithConsumption: number;
  perThousand: Record<Operation, number>;
}

async function measureRow(bench: BenchContext, row: AgentRow): Promise<MeasuredRow> {
  const { serviceUrl, settings, processes, progress } = bench;
  progress(`agents: ${row.name}`);
  const before = await afterConsumer(serviceUrl);
  const meter = cpuMeter<ProcessRole>(processes);
  const withConsumption = processes.worker.cpuSince();
  const load = await postRequests(serviceUrl, row.requests, { concurrency: agentClients, seconds: settings.seconds });
  const cpu = meter();
  const after = await afterConsumer(serviceUrl);
  const workerWithConsumption = withConsumption();
  const perThousand = Object.fromEntries(
    operations.map(([, operation]) => [operation, perThousandData(before, after, operation)]),
  ) as Record<Operation, number>;
  return { ...row, load, accepted: after.dataAccepted - before.dataAccepted, cpu, workerWithConsumption, perThousand };
}

/**
 * The Durable Object requests one request of `requests` makes, its metrics known: it is posted
 * alone once the consumer is done, and the counts read as soon as it is answered, before the queue
 * hands its messages to the consumer (whose own requests would count too). An attempt the consumer
 * overtook (it read a message meanwhile) is made again; undefined when every attempt was overtaken.
 */
async function intakeObjectRequests(serviceUrl: string, requests: IntakeRequests): Promise<number | undefined> {
  const agent = keptAliveAgent(1);
  const url = new URL(`${serviceUrl}${requests.path}`);
  const { contentType, headers } = requests;
  try {
    for (let attempt = 0; attempt < intakeProbeAttempts; attempt++) {
      const before = await afterConsumer(serviceUrl);
      const body = requests.bodies[attempt % requests.bodies.length];
      const outcome = await send(agent, url, { method: "POST", body, contentType, headers });
      const after = await readUsage(serviceUrl);
      if (outcome !== requests.expectedStatus) throw new Error(`${requests.path} answered ${outcome}`);
      if (after.queueMessagesRead === before.queueMessagesRead) {
        return after.durableObjectRequests - before.durableObjectRequests;
      }
    }
    return undefined;
  } finally {
    agent.destroy();
  }
}

/** InfluxDB's closed loop over the same bodies, and the CPU time of its processes meanwhile. */
interface InfluxDbRow {
  name: string;
  load: LoadResult;
  cpuSeconds: number;
  dataPerRequest: number;
}

async function influxDbRow(
  influxDb: InfluxDbUnderTest,
  row: AgentRow,
  seconds: number,
  progress: (note: string) => void,
): Promise<InfluxDbRow> {
  progress(`agents: ${influxDb.name}, ${row.name}`);
  const write = new URL(influxDb.writeUrl);
  // InfluxDB's own write path, query and all: only the body and its encoding are the row's.
  const requests = { ...row.requests, path: `${write.pathname}${write.search}`, expectedStatus: 204 };
  const elapsed = influxDb.processes.cpuSince();
  const load = await postRequests(write.origin, requests, { concurrency: agentClients, seconds });
  return { name: row.name, load, cpuSeconds: elapsed(), dataPerRequest: row.requests.dataPerRequest };
}

const microseconds = (seconds: number, count: number) => (seconds * 1e6) / count;
const cores = (cpuSeconds: number, wallSeconds: number) => fixed(cpuSeconds / wallSeconds, 2);
const dataPerSecond = (row: MeasuredRow) => row.accepted / row.load.seconds;
const errorsNote = (load: LoadResult) => (load.errors > 0 ? ` (${fixed(load.errors)} errors)` : "");

/**
 * Intake from agents: accepted data/s of each agent protocol at its clients' request sizes, beside
 * InfluxDB's /write of the same line-protocol bodies; the Worker's CPU time per datum; and the
 * platform operations per 1,000 data, beside RDF/JSON batches of 1,000 data.
 */
export const agentIntakeSection: BenchSection = async (bench) => {
  const { settings, serviceUrl, influxDb, processes, targets, progress } = bench;
  const telegrafTexts = telegrafCpuBodies(bodiesPerRow);
  const lineProtocol: AgentRow = {
    name: "line protocol, `POST /write`, Telegraf cpu",
    requests: telegrafRequests(telegrafTexts, "identity"),
  };
  const lineProtocolGzip: AgentRow = {
    name: "line protocol, `POST /write`, Telegraf cpu, gzip",
    requests: telegrafRequests(telegrafTexts, "gzip"),
  };
  const remoteWrite: AgentRow = {
    name: "remote write, `POST /api/v1/write`, snappy",
    requests: remoteWriteRequests(bodiesPerRow),
  };
  const otlp: AgentRow = {
    name: "OTLP, `POST /otlp/v1/metrics`, protobuf",
    requests: await otlpRequests(bodiesPerRow),
  };
  const rdfJson: AgentRow = {
    name: "RDF/JSON, `POST /monitoringdata`",
    requests: rdfJsonRequests(bodiesPerRow, 1_000, "bench-agents-rdf-json"),
  };
  const rows = [lineProtocol, lineProtocolGzip, remoteWrite, otlp, rdfJson];

  progress("agents: warm-up");
  // Compiles each path and registers each row's metrics, which are known from then on.
  for (const { requests } of rows) {
    await postRequests(serviceUrl, requests, { concurrency: agentClients, seconds: warmUpSeconds });
  }
  const measured: MeasuredRow[] = [];
  for (const row of rows) measured.push(await measureRow(bench, row));
  progress("agents: Durable Object requests of one request, its metrics known");
  const probes: (number | undefined)[] = [];
  for (const { requests } of rows) probes.push(await intakeObjectRequests(serviceUrl, requests));
  const influxRows =
    influxDb === undefined
      ? undefined
      : [
          await influxDbRow(influxDb, lineProtocol, settings.seconds, progress),
          await influxDbRow(influxDb, lineProtocolGzip, settings.seconds, progress),
        ];

  const [plainRow, gzipRow, remoteRow, otlpRow, rdfRow] = measured as [
    MeasuredRow,
    MeasuredRow,
    MeasuredRow,
    MeasuredRow,
    MeasuredRow,
  ];
  const influxRate = (index: number) => {
    const row = influxRows?.[index];
    return row === undefined ? Number.NaN : row.load.perSecond * row.dataPerRequest;
  };
  const versusInfluxDb = [dataPerSecond(plainRow) / influxRate(0), dataPerSecond(gzipRow) / influxRate(1)];
  const influxCells = (index: number) => {
    const row = influxRows?.[index];
    if (row === undefined) return ["–", "–"];
    return [`${fixed(influxRate(index))}${errorsNote(row.load)}`, fixed(versusInfluxDb[index]!, 2)];
  };
  const throughputRows = measured.map((row, index) => [
    row.name,
    fixed(row.requests.dataPerRequest),
    fixed(row.load.perSecond, 1),
    fixed(dataPerSecond(row)),
    fixed(row.load.errors),
    ...(index < 2 ? influxCells(index) : ["", ""]),
  ]);

  const cpuTargets = new Map<MeasuredRow, number>([
    [plainRow, 2],
    [gzipRow, 2],
    [remoteRow, 2],
    [otlpRow, 3],
  ]);
  const rowCpu = (row: MeasuredRow) => microseconds(row.cpu.worker, row.accepted);
  const consumedCpu = (row: MeasuredRow) => microseconds(row.workerWithConsumption, row.accepted);
  const influxCpu = (index: number) => {
    const row = influxRows?.[index];
    if (row === undefined || influxDb?.processes.processes.length === 0) return "–";
    return fixed(microseconds(row.cpuSeconds, row.load.requests * row.dataPerRequest), 2);
  };
  const cpuRows = measured.map((row, index) => {
    const target = cpuTargets.get(row);
    return [
      row.name,
      cores(row.cpu.worker, row.load.seconds),
      fixed(microseconds(row.cpu.worker, row.load.requests), 0),
      fixed(rowCpu(row), 2),
      fixed(consumedCpu(row), 2),
      target === undefined ? "" : `≤ ${target}`,
      cores(row.cpu.bench, row.load.seconds),
      index < 2 ? influxCpu(index) : "",
    ];
  });

  const probeCell = (probe: number | undefined) =>
    probe === undefined ? "– (the consumer overtook every attempt)" : fixed(probe);
  const operationRows = measured.map((row, index) => [
    row.name,
    ...operations.map(([, operation]) => fixed(row.perThousand[operation], 3)),
    probeCell(probes[index]),
  ]);

  const cpuFigure = (row: MeasuredRow) =>
    `${fixed(rowCpu(row), 2)} µs (${fixed(consumedCpu(row), 2)} µs with its consumption)`;
  const cpuMet = (row: MeasuredRow) => rowCpu(row) <= cpuTargets.get(row)!;
  targets.record("agent-cpu-line-protocol", {
    measured: `${cpuFigure(plainRow)}; gzip ${cpuFigure(gzipRow)}; RDF/JSON ${fixed(rowCpu(rdfRow), 2)} µs`,
    met: cpuMet(plainRow) && cpuMet(gzipRow),
  });
  targets.record("agent-cpu-remote-write", { measured: cpuFigure(remoteRow), met: cpuMet(remoteRow) });
  targets.record("agent-cpu-otlp", { measured: cpuFigure(otlpRow), met: cpuMet(otlpRow) });
  if (influxRows === undefined) {
    targets.record("agent-line-protocol-vs-influxdb", {
      measured: `not compared: no InfluxDB answered at ${settings.influxDbUrl}`,
      met: false,
    });
  } else {
    targets.record("agent-line-protocol-vs-influxdb", {
      measured:
        `${fixed(versusInfluxDb[0]!, 2)} (${fixed(dataPerSecond(plainRow))} ÷ ${fixed(influxRate(0))} field values/s); ` +
        `gzip ${fixed(versusInfluxDb[1]!, 2)} (${fixed(dataPerSecond(gzipRow))} ÷ ${fixed(influxRate(1))})`,
      met: versusInfluxDb.every((ratio) => ratio >= 0.5),
    });
  }
  const agentRows = [plainRow, gzipRow, remoteRow, otlpRow];
  const messages = (row: MeasuredRow) => row.perThousand.queueMessagesWritten;
  targets.record("agent-queue-messages", {
    measured:
      agentRows.map((row) => fixed(messages(row), 3)).join(", ") +
      ` per 1,000 data (line protocol, gzip, remote write, OTLP); RDF/JSON ${fixed(messages(rdfRow), 3)}`,
    met: agentRows.every((row) => messages(row) <= messages(rdfRow)),
  });
  const agentProbes = probes.slice(0, agentRows.length);
  targets.record("agent-known-metric-object-requests", {
    measured:
      `${agentProbes.map((probe) => (probe === undefined ? "–" : fixed(probe))).join(", ")} (line protocol, gzip, ` +
      "remote write, OTLP); with the consumer's, per 1,000 data: " +
      `${agentRows.map((row) => fixed(row.perThousand.durableObjectRequests, 3)).join(", ")}, RDF/JSON ` +
      fixed(rdfRow.perThousand.durableObjectRequests, 3),
    met: agentProbes.every((probe) => probe === 0),
  });

  const influxName = influxDb?.name ?? "InfluxDB";
  const influxNote =
    influxDb === undefined
      ? `No InfluxDB answered at ${settings.influxDbUrl} (.ci/install-interop-servers.sh starts one): the comparison is skipped.`
      : `${influxName} wrote the very line-protocol bodies of the first two rows, plain and gzip, to POST /write of a ` +
        `database of its own, in the same closed loop after the other rows; its CPU is that of ${influxDb.processes.describe()}.`;
  return [
    `Intake from agents: each row posts for ${settings.seconds} s in a closed loop of ${agentClients} clients (a few ` +
      "agents, each sending its next batch once the last was answered), cycling through " +
      `${bodiesPerRow} bodies of the size the agent sends: Telegraf's cpu input, 1,000 lines of 10 fields (tags cpu ` +
      "and host) per batch, plain and gzip as `content_encoding` sends it; Prometheus's 2,000 samples per remote " +
      "write, snappy; the OpenTelemetry SDK's export of 1,000 points (10 instruments × 100 attribute sets, its " +
      "protobuf serializer); and RDF/JSON batches of 1,000 data beside them. Every row's metrics were registered by " +
      `an unmeasured warm-up of ${warmUpSeconds} s. Data/s are the data the service counted as accepted (GET /v1/usage) ` +
      `over the row's seconds. ${influxNote}`,
    "",
    ...markdownTable(
      [
        "intake",
        "data per request",
        "requests/s",
        "data/s",
        "errors",
        `${influxName} field values/s`,
        `÷ ${influxName}`,
      ],
      throughputRows,
    ),
    "",
    `Worker CPU: the utime + stime of ${processes.worker.describe()} while the row's requests ran, per request and ` +
      'per accepted datum; "with its consumption" runs on until the consumer was done with the row\'s data (every ' +
      "queue message written was read and no count moved for " +
      `${fixed((quietPolls * usagePollMs) / 1000, 2)} s). The bench's own CPU shows the clients were not the bound.`,
    "",
    ...markdownTable(
      [
        "intake",
        "Worker CPU, cores",
        "µs per request",
        "µs per datum",
        "with its consumption",
        "target",
        "bench CPU, cores",
        `${influxName} CPU µs per field value`,
      ],
      cpuRows,
    ),
    "",
    "Platform operations per 1,000 accepted data, counted by the Worker (GET /v1/usage) from before each row until " +
      "the consumer was done with its data (no observers, so the consumer's only Durable Object request is its " +
      "metric's delivery plan per batch); and the Durable Object requests of one request alone, posted once the " +
      "consumer was done and counted as soon as it was answered, before its messages reached the consumer.",
    "",
    ...markdownTable(
      ["intake", ...operations.map(([name]) => name), "Durable Object requests of one request, its metrics known"],
      operationRows,
    ),
  ];
};
