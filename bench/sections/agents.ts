import { combined, combineLoads, type LoadResult, type Measured } from "../load/closed-loop.ts";
import { keptAliveAgent, send } from "../load/http-client.ts";
import { telegrafCpuBodies } from "../load/requests/agent-batches.ts";
import { otlpRequests, remoteWriteRequests, telegrafRequests } from "../load/requests/agent-requests.ts";
import { type IntakeRequests, rdfJsonRequests, sendRequests } from "../load/requests/intake-requests.ts";
import type { InfluxDbUnderTest } from "../load/systems/influxdb.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import type { ProcessRole } from "../runtime/process-accounting.ts";
import { cpuMeter } from "../runtime/process-accounting.ts";
import { afterConsumer, consumerQuietSeconds, countsBetween, readUsage, type Usage } from "../runtime/usage.ts";
import type { BenchContext, BenchSection } from "./section.ts";

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
/** How many times a request is posted alone to see the Durable Object requests of its intake. */
const intakeProbeAttempts = 5;
/**
 * The line-protocol rows alternate with InfluxDB's in rounds, so that the drift of a shared machine
 * weighs on both alike; each row's figure is its data over its seconds, summed over the rounds.
 */
const ratioRounds = 3;

/** The operations per 1,000 accepted data the section reports. */
const operations = [
  ["queue messages written", "queueMessagesWritten"],
  ["queue messages read", "queueMessagesRead"],
  ["Durable Object requests", "durableObjectRequests"],
] as const satisfies readonly [string, keyof Usage][];
type Operation = (typeof operations)[number][1];
const operationKeys = operations.map(([, operation]) => operation);

interface AgentRow {
  name: string;
  requests: IntakeRequests;
}

interface MeasuredRow extends AgentRow, Measured {
  /** Data the service counted as accepted while the row ran. */
  accepted: number;
  /** The Worker's CPU seconds from the first request until the consumer was done with the row's data. */
  workerWithConsumption: number;
  /** Operations from before the row until the consumer was done with its data. */
  operations: Record<Operation, number>;
}

async function measureRow(bench: BenchContext, row: AgentRow, seconds: number): Promise<MeasuredRow> {
  const { serviceUrl, processes } = bench;
  const before = await afterConsumer(serviceUrl);
  const meter = cpuMeter<ProcessRole>(processes);
  const withConsumption = processes.worker.cpuSince();
  const load = await sendRequests(serviceUrl, row.requests, { concurrency: agentClients, seconds });
  const cpu = meter();
  const after = await afterConsumer(serviceUrl);
  return {
    ...row,
    load,
    cpu,
    accepted: after.dataAccepted - before.dataAccepted,
    workerWithConsumption: withConsumption(),
    operations: countsBetween(before, after, operationKeys),
  };
}

/** A row measured in rounds, as one. */
function combinedRows(rounds: readonly MeasuredRow[]): MeasuredRow {
  const sum = (pick: (round: MeasuredRow) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  return {
    ...rounds[0]!,
    ...combined(rounds),
    accepted: sum((round) => round.accepted),
    workerWithConsumption: sum((round) => round.workerWithConsumption),
    operations: Object.fromEntries(
      operations.map(([, operation]) => [operation, sum((round) => round.operations[operation])]),
    ) as Record<Operation, number>,
  };
}

const perThousand = (row: MeasuredRow, operation: Operation) => (row.operations[operation] * 1_000) / row.accepted;

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
  load: LoadResult;
  cpuSeconds: number;
  dataPerRequest: number;
}

async function influxDbRow(influxDb: InfluxDbUnderTest, row: AgentRow, seconds: number): Promise<InfluxDbRow> {
  const write = new URL(influxDb.writeUrl);
  // InfluxDB's own write path, query and all: only the body and its encoding are the row's.
  const requests = { ...row.requests, path: `${write.pathname}${write.search}`, expectedStatus: 204 };
  const elapsed = influxDb.processes.cpuSince();
  const load = await sendRequests(write.origin, requests, { concurrency: agentClients, seconds });
  return { load, cpuSeconds: elapsed(), dataPerRequest: row.requests.dataPerRequest };
}

const combinedInfluxDbRows = (rounds: readonly InfluxDbRow[]): InfluxDbRow => ({
  load: combineLoads(rounds.map((round) => round.load)),
  cpuSeconds: rounds.reduce((total, round) => total + round.cpuSeconds, 0),
  dataPerRequest: rounds[0]!.dataPerRequest,
});

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
    await sendRequests(serviceUrl, requests, { concurrency: agentClients, seconds: warmUpSeconds });
  }
  const single = async (row: AgentRow) => {
    progress(`agents: ${row.name}`);
    return measureRow(bench, row, settings.seconds);
  };
  const [remoteRow, otlpRow, rdfRow] = [await single(remoteWrite), await single(otlp), await single(rdfJson)];
  // Both encodings of Telegraf's bodies and InfluxDB's writes of them, in turn, round after round.
  const ratioPairs = [lineProtocol, lineProtocolGzip].map((row) => ({
    row,
    ours: [] as MeasuredRow[],
    influx: [] as InfluxDbRow[],
  }));
  const roundSeconds = settings.seconds / 2;
  for (let round = 0; round < ratioRounds; round++) {
    progress(`agents: line protocol${influxDb === undefined ? "" : ` and ${influxDb.name}`}, round ${round + 1}`);
    for (const { row, ours, influx } of ratioPairs) {
      ours.push(await measureRow(bench, row, roundSeconds));
      if (influxDb !== undefined) influx.push(await influxDbRow(influxDb, row, roundSeconds));
    }
  }
  const [plainRow, gzipRow] = ratioPairs.map(({ ours }) => combinedRows(ours)) as [MeasuredRow, MeasuredRow];
  const influxRows = influxDb === undefined ? undefined : ratioPairs.map(({ influx }) => combinedInfluxDbRows(influx));
  const measured = [plainRow, gzipRow, remoteRow, otlpRow, rdfRow];
  progress("agents: Durable Object requests of one request, its metrics known");
  const probes: (number | undefined)[] = [];
  for (const { requests } of measured) probes.push(await intakeObjectRequests(serviceUrl, requests));

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
    ...operations.map(([, operation]) => fixed(perThousand(row, operation), 3)),
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
  const messages = (row: MeasuredRow) => perThousand(row, "queueMessagesWritten");
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
      `${agentRows.map((row) => fixed(perThousand(row, "durableObjectRequests"), 3)).join(", ")}, RDF/JSON ` +
      fixed(perThousand(rdfRow, "durableObjectRequests"), 3),
    met: agentProbes.every((probe) => probe === 0),
  });

  const influxName = influxDb?.name ?? "InfluxDB";
  const roundRatios = ratioPairs.map(({ ours, influx }) =>
    ours.map((round, index) => {
      const other = influx[index];
      return other === undefined ? Number.NaN : dataPerSecond(round) / (other.load.perSecond * other.dataPerRequest);
    }),
  );
  const influxNote =
    influxDb === undefined
      ? `No InfluxDB answered at ${settings.influxDbUrl} (.ci/install-interop-servers.sh starts one): the comparison ` +
        "is skipped."
      : `Beside them, ${influxName} wrote the very same line-protocol bodies, plain and gzip, to the POST /write of a ` +
        `database of its own in the same closed loop; its CPU is that of ${influxDb.processes.describe()}.`;
  return [
    `Intake from agents: closed loops of ${agentClients} clients (a few agents, each sending its next batch once the ` +
      `last was answered), each cycling through ${bodiesPerRow} bodies of the size its agent sends: Telegraf's cpu ` +
      "input, 1,000 lines of 10 fields (tags cpu and host) per batch, plain and gzip as `content_encoding` sends it; " +
      "Prometheus's 2,000 samples per remote write, snappy; the OpenTelemetry SDK's export of 1,000 points (10 " +
      "instruments × 100 attribute sets, its protobuf serializer); and RDF/JSON batches of 1,000 data beside them. " +
      `Every row's metrics were registered by an unmeasured warm-up of ${warmUpSeconds} s. The remote write, OTLP and ` +
      `RDF/JSON rows post for ${settings.seconds} s each; then the line-protocol rows, plain and gzip, run in ` +
      `${ratioRounds} rounds of ${fixed(roundSeconds, 1)} s, each followed by InfluxDB's write of the same bodies, so ` +
      "that the drift of a shared machine weighs on both alike. Data/s are the data the service counted as accepted " +
      `(GET /v1/usage) over the row's seconds. ${influxNote}`,
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
    ...(influxDb === undefined
      ? []
      : [
          `Line protocol ÷ ${influxName} by round: plain ${roundRatios[0]!.map((ratio) => fixed(ratio, 2)).join(", ")}; ` +
            `gzip ${roundRatios[1]!.map((ratio) => fixed(ratio, 2)).join(", ")}.`,
          "",
        ]),
    `Worker CPU: the utime + stime of ${processes.worker.describe()} while the row's requests ran, per request and ` +
      'per accepted datum; "with its consumption" runs on until the consumer was done with the row\'s data (every ' +
      "queue message written was read and no count moved for " +
      `${fixed(consumerQuietSeconds, 2)} s). The bench's own CPU shows the clients were not the bound.`,
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
      "the consumer was done with its data (no observers, so the consumer's only Durable Object requests are " +
      "the delivery plans of each metric of a batch); and the Durable Object requests of one request alone, posted once the " +
      "consumer was done and counted as soon as it was answered, before its messages reached the consumer.",
    "",
    ...markdownTable(
      ["intake", ...operations.map(([name]) => name), "Durable Object requests of one request, its metrics known"],
      operationRows,
    ),
  ];
};
