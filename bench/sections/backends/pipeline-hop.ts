import { type BackendReceiver, startBackendReceiver } from "../../load/receivers/backend-receiver.ts";
import { receiverHost } from "../../load/receivers/receivers.ts";
import type { IntakeRequests } from "../../load/requests/intake-requests.ts";
import {
  samplesPerBody,
  samplesPerSeries,
  sequencedSeriesWrites,
  seriesPerBody,
} from "../../load/requests/series-writes.ts";
import { quietSeconds } from "../../load/rounds/awaited-arrivals.ts";
import { roundClients } from "../../load/rounds/consumed-round.ts";
import {
  combinedRounds,
  type DeliveredRound,
  lostSamples,
  microsPerSample,
  runDeliveredRound,
  samplesPerSecond,
} from "../../load/rounds/delivered-round.ts";
import { registerSelectorObserver } from "../../load/selector-observer-client.ts";
import { fixed, markdownTable } from "../../report/markdown.ts";
import { type LaunchedService, launchService } from "../../runtime/launched-service.ts";
import { afterConsumer } from "../../runtime/usage.ts";
import { startVmagent, type Vmagent } from "../../runtime/vmagent.ts";
import type { BenchContext, BenchSection } from "../section.ts";
import { hopBound, hopProfileLines } from "./hop-bounds.ts";
import { type HopProfile, profileHop } from "./hop-profile.ts";

/*
 * tower-edge as a hop of a metrics pipeline (remote write in, one PROMETHEUS selector observer
 * out) beside vmagent forwarding the very same bodies, each to a no-op receiver that reads every
 * sample it gets.
 */

const hopPrefix = "bench_backends_hop_";
const hopMatch = `{__name__=~"${hopPrefix}.+"}`;
/** The bodies' series are spread over this many metric names, as a node_exporter's are over its families. */
const families = 10;
/** Unmeasured first: compiles the paths and registers the metrics, which are known from then on. */
const warmUpBodies = 25;
/** The systems take turns, round after round, so that the drift of a shared machine weighs on both alike. */
const rounds = 2;
const targetCpuRatio = 8;

type OursGroup = "workerd" | "tree";
type HopBodies = { warmUp: IntakeRequests; rounds: IntakeRequests[] };

/** Each system's rounds, and its processes as the report names them; vmagent's undefined when it is not installed. */
interface HopFigures {
  ours: DeliveredRound<OursGroup>;
  oursProcesses: Record<OursGroup, string>;
  vmagent: { figures: DeliveredRound<"vmagent">; process: string } | undefined;
}

/** The hop's warm-up and rounds, the systems taking turns, to their receivers. */
async function measureHop(
  progress: (note: string) => void,
  service: LaunchedService,
  vmagent: Vmagent | undefined,
  receivers: Record<"ours" | "vmagent", BackendReceiver>,
  bodies: HopBodies,
): Promise<HopFigures> {
  // Not removed after: the service is stopped with it.
  await registerSelectorObserver(service.url, [hopMatch], receivers.ours);
  progress("backends: warm-up of the pipeline hop");
  await runDeliveredRound({ baseUrl: service.url, requests: bodies.warmUp, receiver: receivers.ours, groups: {} });
  if (vmagent !== undefined) {
    await runDeliveredRound({ baseUrl: vmagent.url, requests: bodies.warmUp, receiver: receivers.vmagent, groups: {} });
  }
  const ours: DeliveredRound<OursGroup>[] = [];
  const theirs: DeliveredRound<"vmagent">[] = [];
  for (const [index, requests] of bodies.rounds.entries()) {
    progress(`backends: pipeline hop, tower-edge, round ${index + 1} of ${rounds}`);
    await afterConsumer(service.url);
    const groups = { workerd: service.workerd, tree: service.tree };
    ours.push(await runDeliveredRound({ baseUrl: service.url, requests, receiver: receivers.ours, groups }));
    if (vmagent === undefined) continue;
    progress(`backends: pipeline hop, vmagent, round ${index + 1} of ${rounds}`);
    const vmagentGroups = { vmagent: vmagent.process };
    theirs.push(
      await runDeliveredRound({ baseUrl: vmagent.url, requests, receiver: receivers.vmagent, groups: vmagentGroups }),
    );
  }
  return {
    ours: combinedRounds(ours),
    oursProcesses: { workerd: service.workerd.describe(), tree: service.tree.describe() },
    vmagent:
      vmagent === undefined ? undefined : { figures: combinedRounds(theirs), process: vmagent.process.describe() },
  };
}

/** Starts a second `npm start` (the Worker as deployed) and vmagent (where installed), measures the hop, and stops them. */
async function runHop(
  { settings, progress }: BenchContext,
  receivers: Record<"ours" | "vmagent", BackendReceiver>,
  bodies: HopBodies,
): Promise<HopFigures> {
  progress("backends: starting a second npm start (the Worker as deployed) and vmagent");
  const service = await launchService();
  try {
    const writeUrl = `http://${receiverHost}:${receivers.vmagent.port}/api/v1/write`;
    const vmagent = await startVmagent(settings.vmagentBinary, writeUrl);
    if (vmagent === undefined) progress(`backends: no vmagent at ${settings.vmagentBinary}: its half is skipped`);
    try {
      return await measureHop(progress, service, vmagent, receivers, bodies);
    } finally {
      await vmagent?.stop();
    }
  } finally {
    await service.stop();
  }
}

/**
 * A pipeline hop beside its anchor: remote write bodies of 200 series × 10 samples through a second
 * `npm start` to one PROMETHEUS selector observer, and through vmagent, each to a receiver that
 * decodes and counts every sample; samples/s and CPU per sample, of workerd and of the whole
 * `npm start` tree, and of vmagent; then a round profiled, and what bounds the ratio.
 */
export const pipelineHopPart: BenchSection = async (bench) => {
  const { settings, targets, progress } = bench;
  const bodiesPerRound = Math.ceil(settings.backendsSamples / samplesPerBody / rounds);
  progress("backends: building the pipeline hop's remote write bodies");
  const startMs = Date.now() - 3_600_000;
  const metricOf = (series: number) => `${hopPrefix}${series % families}`;
  const bodies = {
    warmUp: sequencedSeriesWrites({ first: 0, count: warmUpBodies, metricOf, startMs }),
    rounds: Array.from({ length: rounds }, (_, round) =>
      sequencedSeriesWrites({ first: warmUpBodies + round * bodiesPerRound, count: bodiesPerRound, metricOf, startMs }),
    ),
  };
  const receivers = {
    ours: await startBackendReceiver("PROMETHEUS"),
    vmagent: await startBackendReceiver("PROMETHEUS"),
  };
  let hop: HopFigures;
  let profile: HopProfile;
  try {
    hop = await runHop(bench, receivers, bodies);
    progress("backends: profiling a round of the pipeline hop");
    profile = await profileHop([hopMatch], receivers.ours, { warmUp: bodies.warmUp, round: bodies.rounds[0]! });
  } finally {
    await receivers.ours.close();
    await receivers.vmagent.close();
  }
  const { ours, oursProcesses } = hop;
  const vmagent = hop.vmagent?.figures;
  const unreadable = ours.unreadable + (vmagent?.unreadable ?? 0);
  if (unreadable > 0) throw new Error(`the hop's receivers got ${unreadable} unreadable payloads or samples`);

  const treeCpu = microsPerSample(ours, "tree");
  const workerdCpu = microsPerSample(ours, "workerd");
  const vmagentCpu = vmagent === undefined ? Number.NaN : microsPerSample(vmagent, "vmagent");
  // Judged on workerd alone, the Worker's CPU: the relay has nothing to do in an HTTP hop, and the
  // launcher is Miniflare's host, which a deployment has not.
  const ratio = workerdCpu / vmagentCpu;
  const treeRatio = treeCpu / vmagentCpu;
  const oursLost = lostSamples(ours);
  const lostNote = `lost ${fixed(oursLost)} of ${fixed(ours.accepted)} samples${ours.refused > 0 ? ` (${fixed(ours.refused)} refused)` : ""}`;
  const ratioMet = ratio <= targetCpuRatio;
  targets.record("backend-hop-vs-vmagent", {
    measured:
      vmagent === undefined
        ? `ratio not measured (no vmagent at ${settings.vmagentBinary}); workerd ${fixed(workerdCpu, 2)} µs per sample; ${lostNote}`
        : `${fixed(ratio, 2)} × workerd alone (${fixed(workerdCpu, 2)} ÷ ${fixed(vmagentCpu, 2)} µs per sample; the ` +
          `\`npm start\` tree ${fixed(treeRatio, 2)} ×); ${lostNote}`,
    met: ratioMet && oursLost === 0 && ours.refused === 0,
  });

  const row = (name: string, round: DeliveredRound<string>, micros: number, cpuSeconds: number) => [
    name,
    fixed(round.accepted),
    fixed(round.refused),
    fixed(round.delivered),
    fixed(lostSamples(round)),
    fixed(round.duplicates),
    fixed(round.accepted / round.postingSeconds),
    fixed(samplesPerSecond(round)),
    fixed(cpuSeconds / round.throughSeconds, 2),
    fixed(micros, 2),
  ];
  const rows = [
    row(`tower-edge: ${oursProcesses.workerd}`, ours, workerdCpu, ours.cpu.workerd),
    row(`tower-edge: ${oursProcesses.tree}`, ours, treeCpu, ours.cpu.tree),
    ...(hop.vmagent === undefined
      ? []
      : [row(hop.vmagent.process, hop.vmagent.figures, vmagentCpu, hop.vmagent.figures.cpu.vmagent)]),
  ];
  const total = rounds * bodiesPerRound * samplesPerBody;
  return [
    `A pipeline hop beside its anchor: ${fixed(total)} samples in ${fixed(rounds * bodiesPerRound)} Prometheus remote ` +
      `write bodies (${seriesPerBody} series × ${samplesPerSeries} samples each, snappy, the values the samples' ` +
      `sequence numbers, the series spread over ${families} metric names) posted by a closed loop of ${roundClients} ` +
      "clients, once to a second `npm start` (started for this part on free ports with a fresh state directory, " +
      `running the Worker as deployed: no local seam, so no intake journal) with one PROMETHEUS selector observer (\`${hopMatch}\`), once to ` +
      (vmagent === undefined
        ? `vmagent — **not measured: no vmagent at ${settings.vmagentBinary}** (Debian's \`victoria-metrics\` package ` +
          "provides it)"
        : `vmagent (${settings.vmagentBinary}, its defaults but \`-httpListenAddr\`, \`-remoteWrite.url\`, ` +
          "`-remoteWrite.tmpDataPath`) forwarding them") +
      "; each to a receiver of its own that answers 204 at once and decodes every payload (snappy, the " +
      "WriteRequest's samples) to count each sample by its value. The systems take turns over " +
      `${rounds} rounds of ${fixed(bodiesPerRound * samplesPerBody)} samples, after an unmeasured warm-up of ` +
      `${fixed(warmUpBodies * samplesPerBody)} samples each. Samples/s in: accepted over the posting time; through: ` +
      "delivered from the first post to the last arrival. CPU: utime + stime from the first post until the last " +
      `sample arrived (lost: accepted samples not received when nothing more came for ${quietSeconds} s), intake ` +
      "and delivery together, of workerd alone and of the launcher with every process under it (workerd, the relay)" +
      `${hop.vmagent === undefined ? "" : ", and of vmagent's process"}.`,
    "",
    ...markdownTable(
      [
        "system",
        "samples accepted",
        "refused",
        "delivered",
        "lost",
        "duplicates",
        "samples/s in",
        "samples/s through",
        "CPU, cores",
        "CPU µs per sample",
      ],
      rows,
    ),
    "",
    vmagent === undefined
      ? `tower-edge over vmagent: **not measured** (no vmagent at ${settings.vmagentBinary}); ${lostNote}.`
      : `tower-edge over vmagent, CPU per sample end to end: **${fixed(ratio, 2)} ×** workerd alone ` +
        `(target ≤ ${targetCpuRatio} ×: ${ratioMet ? "met" : "not met"}), ${fixed(treeRatio, 2)} × the whole ` +
        `\`npm start\` tree; ${lostNote} (target 0).`,
    "",
    ...hopProfileLines(profile, vmagentCpu),
    "",
    hopBound(profile, vmagentCpu),
  ];
};
