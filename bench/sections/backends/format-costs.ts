import type { BackendBenchFormat } from "../../load/receivers/backend-payloads.ts";
import { type BackendReceiver, startBackendReceiver } from "../../load/receivers/backend-receiver.ts";
import type { IntakeRequests } from "../../load/requests/intake-requests.ts";
import {
  samplesPerBody,
  samplesPerSeries,
  sequencedSeriesWrites,
  seriesPerBody,
} from "../../load/requests/series-writes.ts";
import { quietSeconds } from "../../load/rounds/awaited-arrivals.ts";
import { type ConsumedRound, cpuPerDatum, roundClients, runConsumedRound } from "../../load/rounds/consumed-round.ts";
import {
  combinedRounds,
  type DeliveredRound,
  lostSamples,
  microsPerSample,
  runDeliveredRound,
  samplesPerSecond,
} from "../../load/rounds/delivered-round.ts";
import { registerSelectorObservers } from "../../load/selector-observer-client.ts";
import { fixed, markdownTable } from "../../report/markdown.ts";
import { afterConsumer } from "../../runtime/usage.ts";
import type { BenchContext, BenchSection } from "../section.ts";

/*
 * The Worker's CPU time per datum-delivery of each output for metric backends beside TOWER/JSON's:
 * the same remote write data but for their metric names, one selector observer of each format
 * following its own names, the cases taking turns in the same run.
 */

/** Each format's metric names, and the anchor's first. */
const formatCases = [
  { format: "TOWER/JSON", names: "tower_json" },
  { format: "PROMETHEUS", names: "prometheus" },
  { format: "INFLUXDB", names: "influxdb" },
  { format: "OTLP", names: "otlp" },
] as const satisfies readonly { format: BackendBenchFormat; names: string }[];
type MeasuredFormat = Exclude<BackendBenchFormat, "TOWER/JSON">;
const targetRatios: Record<MeasuredFormat, number> = { PROMETHEUS: 1.2, INFLUXDB: 1.2, OTLP: 1.5 };
/** Names no observer follows: what taking the data in and consuming them costs by itself. */
const unobservedNames = "unobserved";
const families = 10;
const rounds = 3;
const bodiesPerRound = 50;
const warmUpBodies = 10;

const namesPrefix = (names: string) => `bench_backends_${names}_`;

interface CaseRequests {
  warmUp: IntakeRequests;
  rounds: IntakeRequests[];
}

/** One case's bodies: an unmeasured warm-up, then each round's, of its own metric names. */
function caseRequests(names: string, startMs: number): CaseRequests {
  const metricOf = (series: number) => `${namesPrefix(names)}${series % families}`;
  return {
    warmUp: sequencedSeriesWrites({ first: 0, count: warmUpBodies, metricOf, startMs }),
    rounds: Array.from({ length: rounds }, (_, round) =>
      sequencedSeriesWrites({ first: warmUpBodies + round * bodiesPerRound, count: bodiesPerRound, metricOf, startMs }),
    ),
  };
}

interface ObservedCase {
  format: BackendBenchFormat;
  requests: CaseRequests;
  receiver: BackendReceiver;
  measured: DeliveredRound<"worker" | "bench">[];
}

/** The observed cases and the unobserved one, warmed up and then measured in turns. */
async function measureCases(bench: BenchContext, cases: readonly ObservedCase[], unobserved: CaseRequests) {
  const { serviceUrl, processes, progress } = bench;
  const groups = { worker: processes.worker, bench: processes.bench };
  progress("backends: warm-up of the formats");
  for (const { requests, receiver } of cases) {
    await afterConsumer(serviceUrl);
    await runDeliveredRound({ baseUrl: serviceUrl, requests: requests.warmUp, receiver, groups: {} });
  }
  await runConsumedRound(bench, unobserved.warmUp, warmUpBodies);
  const unobservedRounds: ConsumedRound[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const observed of cases) {
      progress(`backends: ${observed.format}, round ${round + 1} of ${rounds}`);
      await afterConsumer(serviceUrl);
      const requests = observed.requests.rounds[round]!;
      observed.measured.push(
        await runDeliveredRound({ baseUrl: serviceUrl, requests, receiver: observed.receiver, groups }),
      );
    }
    progress(`backends: no observer, round ${round + 1} of ${rounds}`);
    unobservedRounds.push(await runConsumedRound(bench, unobserved.rounds[round]!, bodiesPerRound));
  }
  return unobservedRounds;
}

/**
 * Worker CPU per datum-delivery of PROMETHEUS, INFLUXDB and OTLP beside TOWER/JSON's: remote write
 * data to one selector observer of each format, each case measured on its own, in turns.
 */
export const formatCostsPart: BenchSection = async (bench) => {
  const { serviceUrl, processes, targets, progress } = bench;
  progress("backends: building the formats' remote write bodies");
  const startMs = Date.now() - 3_600_000;
  const cases: ObservedCase[] = [];
  const removals: (() => Promise<void>)[] = [];
  let unobservedRounds: ConsumedRound[];
  try {
    for (const { format, names } of formatCases) {
      const receiver = await startBackendReceiver(format);
      cases.push({ format, requests: caseRequests(names, startMs), receiver, measured: [] });
      removals.push(await registerSelectorObservers(serviceUrl, [[`{__name__=~"${namesPrefix(names)}.+"}`]], receiver));
    }
    unobservedRounds = await measureCases(bench, cases, caseRequests(unobservedNames, startMs));
  } finally {
    for (const remove of removals) await remove();
    for (const { receiver } of cases) await receiver.close();
  }

  const figures = new Map(cases.map(({ format, measured }) => [format, combinedRounds(measured)]));
  const unreadable = [...figures.values()].reduce((total, round) => total + round.unreadable, 0);
  if (unreadable > 0) throw new Error(`the formats' receivers got ${unreadable} unreadable payloads or samples`);
  const perDelivery = (format: BackendBenchFormat) => microsPerSample(figures.get(format)!, "worker");
  const unobservedCpu = cpuPerDatum(unobservedRounds);
  const anchor = perDelivery("TOWER/JSON");
  const anchorOwn = anchor - unobservedCpu;
  const ratio = (format: BackendBenchFormat) => perDelivery(format) / anchor;
  const ownRatio = (format: BackendBenchFormat) => (perDelivery(format) - unobservedCpu) / anchorOwn;
  const met = (format: MeasuredFormat) => ratio(format) <= targetRatios[format];
  const lost = (format: BackendBenchFormat) => lostSamples(figures.get(format)!);
  const figure = (format: MeasuredFormat) =>
    `${format} ${fixed(ratio(format), 2)} × (${fixed(perDelivery(format), 2)} µs; delivery alone ` +
    `${fixed(ownRatio(format), 2)} ×)${lost(format) > 0 ? `, ${fixed(lost(format))} lost` : ""}`;
  const anchorNote = `TOWER/JSON ${fixed(anchor, 2)} µs, of which ${fixed(unobservedCpu, 2)} µs without any observer`;
  targets.record("backend-format-cpu", {
    measured: `${figure("PROMETHEUS")}; ${figure("INFLUXDB")}; ${anchorNote}`,
    met: met("PROMETHEUS") && met("INFLUXDB") && lost("PROMETHEUS") + lost("INFLUXDB") + lost("TOWER/JSON") === 0,
  });
  targets.record("backend-format-cpu-otlp", {
    measured: `${figure("OTLP")}; ${anchorNote}`,
    met: met("OTLP") && lost("OTLP") + lost("TOWER/JSON") === 0,
  });

  const target = (format: BackendBenchFormat) =>
    format === "TOWER/JSON" ? "(anchor)" : `≤ ${targetRatios[format]}: ${met(format) ? "met" : "**not met**"}`;
  const rows = formatCases.map(({ format }) => {
    const round = figures.get(format)!;
    return [
      format,
      fixed(round.accepted),
      fixed(round.delivered),
      fixed(lost(format)),
      fixed(round.duplicates),
      fixed(samplesPerSecond(round)),
      fixed(round.cpu.worker / round.throughSeconds, 2),
      fixed(perDelivery(format), 2),
      fixed(ratio(format), 2),
      target(format),
      fixed(perDelivery(format) - unobservedCpu, 2),
      fixed(ownRatio(format), 2),
      fixed(round.cpu.bench / round.throughSeconds, 2),
    ];
  });
  const unobservedAccepted = unobservedRounds.reduce((total, round) => total + round.accepted, 0);
  const dashes = (count: number) => Array.from({ length: count }, () => "–");
  const unobservedRow = ["no observer", fixed(unobservedAccepted), ...dashes(5), fixed(unobservedCpu, 2), ...dashes(5)];
  return [
    "Outputs for metric backends beside TOWER/JSON: the same Prometheus remote write data (bodies of " +
      `${seriesPerBody} series × ${samplesPerSeries} samples, snappy, the values the samples' sequence numbers) but ` +
      `for their metric names, ${families} per case, posted by a closed loop of ${roundClients} clients to the ` +
      "bench's Worker; one HTTP selector observer per format follows its case's names, to a receiver that answers at " +
      "once and reads every payload down to its samples' values (PROMETHEUS: snappy and the WriteRequest; INFLUXDB: " +
      "each line's `value` field; OTLP: the gauge points; TOWER/JSON: the elements). The cases take turns over " +
      `${rounds} rounds of ${fixed(bodiesPerRound * samplesPerBody)} samples each, after an unmeasured warm-up of ` +
      `${fixed(warmUpBodies * samplesPerBody)}; a case of names no observer follows takes its turn too. Worker CPU: ` +
      `utime + stime of ${processes.worker.describe()} from the first post until the last sample arrived (lost: ` +
      `not received when nothing more came for ${quietSeconds} s), ÷ samples accepted (one observer: per ` +
      "datum-delivery), taking the data in included, as in the four-observers case; for the case without an " +
      'observer, until the consumer was done with its data. "Delivery alone": less that case\'s CPU per datum.',
    "",
    ...markdownTable(
      [
        "format",
        "data accepted",
        "delivered",
        "lost",
        "duplicates",
        "data/s through",
        "Worker CPU, cores",
        "Worker CPU µs per datum-delivery",
        "÷ TOWER/JSON",
        "target",
        "delivery alone, µs",
        "÷ TOWER/JSON's",
        "bench CPU, cores",
      ],
      [...rows, unobservedRow],
    ),
    "",
    "Worker CPU per datum-delivery ÷ TOWER/JSON's: " +
      (["PROMETHEUS", "INFLUXDB", "OTLP"] as const)
        .map((format) => `${format} **${fixed(ratio(format), 2)} ×** (target ≤ ${targetRatios[format]})`)
        .join(", ") +
      `; delivery alone ${(["PROMETHEUS", "INFLUXDB", "OTLP"] as const).map((format) => `${fixed(ownRatio(format), 2)} ×`).join(", ")}.`,
  ];
};
