import { fixed, markdownTable } from "../report/markdown.ts";
import type { ProfileCase, ProfileRun } from "./cases.ts";
import { samplingIntervalMicros } from "./isolate-profiler.ts";
import { attributeFrame, idle, type Stage, stageContents, stages } from "./stages.ts";
import { maxSampleMs, selfTimeByFunction, selfTimeByStage, unsampledMs } from "./summary.ts";

/** The functions listed per case. */
const topFunctions = 15;

/**
 * The stages of delivering what was accepted, the consumer's decoding to its delivery code in the
 * path's order: the consumer and the Durable Object calls it makes.
 */
const deliveryStages: readonly Stage[] = stages.slice(
  stages.indexOf("consumer decode"),
  stages.indexOf("delivery code") + 1,
);

/** A case's profile summed up: the isolate's busy time, by stage. */
export interface ProfileFigures {
  busyMs: number;
  idleMs: number;
  /** Gaps between samples that no sample counts for. */
  unsampledMs: number;
  byStage: Map<string, number>;
  /** Busy µs per datum accepted, or per request answered for a case whose requests hold no data. */
  perUnit: number;
  /** Busy µs per datum-delivery (data × observers) of the delivery stages alone; NaN without observers. */
  deliveryPathPerDelivery: number;
}

/** What a case's figures are counted per: its data, or its requests where they hold none. */
function countedUnit(run: ProfileRun): { count: number; one: string; many: string } {
  return run.data > 0
    ? { count: run.data, one: "datum", many: "data" }
    : { count: run.answered, one: "request", many: "requests" };
}

export function profileFigures(profileCase: ProfileCase, run: ProfileRun): ProfileFigures {
  const byStage = new Map(selfTimeByStage(run.profile, attributeFrame).map(({ stage, ms }) => [stage, ms]));
  const idleMs = byStage.get(idle) ?? 0;
  byStage.delete(idle);
  const busyMs = [...byStage.values()].reduce((sum, ms) => sum + ms, 0);
  const deliveryMs = deliveryStages.reduce((sum, stage) => sum + (byStage.get(stage) ?? 0), 0);
  return {
    busyMs,
    idleMs,
    unsampledMs: unsampledMs(run.profile),
    byStage,
    perUnit: (busyMs * 1_000) / countedUnit(run).count,
    deliveryPathPerDelivery:
      profileCase.observers === 0 ? Number.NaN : (deliveryMs * 1_000) / (run.data * profileCase.observers),
  };
}

/** How the cases are run and what each stage holds, once before the cases. */
export function profileMethodLines(seconds: number, concurrency: number): string[] {
  return [
    "Profiles: where the Worker's isolate spends its time, by stage of the data path and by function, on a " +
      "Worker of its own started for them with workerd's inspector open (the other sections measure one without). " +
      `Each case posts in a closed loop of ${concurrency} clients for ${seconds} s and is profiled from the first ` +
      "post until the consumer has taken the data (a probe datum posted after them reached an observer of " +
      "another metric), after an unprofiled warm-up of the same load. Profile: V8's sampling profiler in " +
      `the Worker's isolate (which also runs its Durable Objects) through workerd's inspector, every ` +
      `${samplingIntervalMicros} µs; busy time is the time sampled outside (idle), wall-clock time, so a ` +
      `busy machine inflates it. A sample counts for the time since the previous one, at most ${maxSampleMs} ms: ` +
      "beyond that the isolate's thread (or the sampler's) was not running and what the isolate did is " +
      'unknown, so the rest of such a gap counts for nothing ("unsampled"). ' +
      "Each frame is named by the module of the bundle it is in (esbuild's module " +
      "markers); a built-in or a shared helper counts for the stage of its nearest caller of a stage of its own " +
      "where the profile's tree shows one (async code resumes without its callers). The stages:",
    "",
    ...markdownTable(
      ["stage", "what counts for it"],
      stages.map((stage) => [stage, stageContents[stage]]),
      2,
    ),
  ];
}

/** One case's lines: its figures, its busy time by stage and by function, and its largest stages. */
export function profileCaseLines(profileCase: ProfileCase, run: ProfileRun, figures: ProfileFigures): string[] {
  const { busyMs, byStage } = figures;
  const share = (ms: number) => `${fixed((100 * ms) / busyMs, 1)} %`;
  const unit = countedUnit(run);
  const perUnit = (ms: number) => fixed((ms * 1_000) / unit.count, 3);
  const largest = [...byStage].sort((a, b) => b[1] - a[1]).slice(0, 3);
  const errors = run.load.errors > 0 ? `, ${fixed(run.load.errors)} requests failed` : "";
  const perDelivery =
    profileCase.observers === 0
      ? ""
      : `, **${fixed((busyMs * 1_000) / (run.data * profileCase.observers), 3)} µs per datum-delivery** ` +
        `(the delivery stages alone: ${fixed(figures.deliveryPathPerDelivery, 3)} µs)`;
  return [
    `Profile, ${profileCase.title}: **${fixed(unit.count / run.load.seconds)} ${unit.many}/s** for ` +
      `${fixed(run.load.seconds, 1)} s (${fixed(unit.count)} ${unit.many}${errors}), then ${fixed(run.drainSeconds, 1)} s until ` +
      `the queue was drained; the isolate busy ${fixed(busyMs)} ms (idle ${fixed(figures.idleMs)} ms, ` +
      `unsampled ${fixed(figures.unsampledMs)} ms), ` +
      `**${fixed(figures.perUnit, 3)} µs per ${unit.one}**${perDelivery}.`,
    "",
    ...markdownTable(
      ["stage", "ms", "share of busy time", `µs per ${unit.one}`],
      stages.map((stage) => {
        const ms = byStage.get(stage) ?? 0;
        return [stage, fixed(ms), share(ms), perUnit(ms)];
      }),
    ),
    "",
    ...markdownTable(
      ["function", "where", "stage", "ms", "share of busy time"],
      selfTimeByFunction(run.profile, attributeFrame, topFunctions, new Set([idle])).map((entry) => [
        entry.functionName,
        entry.where,
        entry.stage,
        fixed(entry.ms),
        share(entry.ms),
      ]),
      3,
    ),
    "",
    `Largest stages, ${profileCase.title}: ${largest.map(([stage, ms]) => `${stage} ${share(ms)}`).join(", ")}.`,
  ];
}
