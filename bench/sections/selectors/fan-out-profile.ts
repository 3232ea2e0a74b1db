import { cpuPerDelivery, type FanOutCase, lost, runFanOutRound } from "../../load/rounds/fan-out-round.ts";
import { registerSelectorObserver } from "../../load/selector-observer-client.ts";
import { withProfiledWorker } from "../../profile/profiled-worker.ts";
import { busyMicros, outsideIsolateMicros, type StageFigures, stageMicrosPer } from "../../profile/round-profile.ts";
import { stages } from "../../profile/stages.ts";
import { fixed, markdownTable, signed } from "../../report/markdown.ts";
import type { BenchContext } from "../section.ts";

/*
 * Where the selector case's CPU beyond the per-metric case's goes: one more round of each case on a
 * Worker of its own with workerd's inspector open, its isolate profiled by stage of the data path.
 */

/** One case's profiled round, per datum-delivery. */
interface CaseProfile extends StageFigures {
  accepted: number;
  lost: number;
}

/** What the warm-up and the profiled round post, in requests. */
export interface ProfiledRounds {
  warmUpRequests: number;
  warmUpTurns: number;
  requests: number;
}

/**
 * Both cases on a profiled Worker: the per-metric case's observer of `oneMetric`, the selector
 * case's observer of `match`, warmed up in turns as the measured rounds are (the selector case's
 * metrics lease their plans), then one profiled round of each.
 */
export async function profileFanOutCases(
  bench: BenchContext,
  cases: { perMetric: FanOutCase; oneMetric: string; selector: FanOutCase; match: string },
  rounds: ProfiledRounds,
): Promise<{ perMetric: CaseProfile; selector: CaseProfile }> {
  return withProfiledWorker(async ({ serviceUrl, system, profiler, runtime }) => {
    const context: BenchContext = { ...bench, serviceUrl, processes: { ...bench.processes, worker: runtime } };
    await system.observe(cases.oneMetric, [cases.perMetric.receiver]);
    await registerSelectorObserver(serviceUrl, [cases.match], cases.selector.receiver);
    for (let turn = 1; turn <= rounds.warmUpTurns; turn++) {
      for (const fanOutCase of [cases.perMetric, cases.selector]) {
        bench.progress(`selectors: profiled Worker, warm-up ${turn} of ${rounds.warmUpTurns}, ${fanOutCase.name}`);
        await runFanOutRound(context, fanOutCase, rounds.warmUpRequests);
      }
    }
    const profileOf = async (fanOutCase: FanOutCase): Promise<CaseProfile> => {
      bench.progress(`selectors: profiled round, ${fanOutCase.name}`);
      const { result, profile } = await profiler.profile(() => runFanOutRound(context, fanOutCase, rounds.requests));
      return {
        accepted: result.accepted,
        lost: lost(result),
        stageMicros: stageMicrosPer(profile, result.accepted),
        workerdMicros: cpuPerDelivery(result),
      };
    };
    const perMetric = await profileOf(cases.perMetric);
    const selector = await profileOf(cases.selector);
    return { perMetric, selector };
  });
}

/** The profiled rounds' table: each stage's µs per datum-delivery in both cases and the difference, largest difference first. */
export function fanOutProfileLines(
  profiles: { perMetric: CaseProfile; selector: CaseProfile },
  names: { perMetric: string; selector: string },
): string[] {
  const { perMetric, selector } = profiles;
  const micros = (profile: CaseProfile, stage: string) => profile.stageMicros.get(stage) ?? 0;
  const rows = stages
    .map((stage) => ({ stage, over: micros(selector, stage) - micros(perMetric, stage) }))
    .filter(({ stage }) => micros(perMetric, stage) > 0 || micros(selector, stage) > 0)
    .sort((a, b) => b.over - a.over)
    .map(({ stage, over }) => [
      stage,
      fixed(micros(perMetric, stage), 3),
      fixed(micros(selector, stage), 3),
      signed(over, 3),
    ]);
  const total = (profile: CaseProfile) => fixed(busyMicros(profile), 3);
  return [
    "Where the selector case's CPU beyond the per-metric case's goes: one more round of each case " +
      `(${fixed(perMetric.accepted)} and ${fixed(selector.accepted)} data, lost ${fixed(perMetric.lost)} and ` +
      `${fixed(selector.lost)}) on a Worker of its own with workerd's inspector open, after the same warm-up, ` +
      "its isolate profiled from the first post until the last datum arrived (the profile section's method and " +
      "stages; busy time is wall-clock time sampled, so a busy machine inflates it), and workerd's CPU time over " +
      "the same stretch; µs per datum-delivery, the stages whose difference is largest first. The rounds end " +
      "before the leases, so the leases' hand-over and renewal are not in them.",
    "",
    ...markdownTable(
      ["stage", names.perMetric, names.selector, "difference"],
      [
        ...rows,
        [
          "the isolate busy",
          total(perMetric),
          total(selector),
          signed(busyMicros(selector) - busyMicros(perMetric), 3),
        ],
        [
          "workerd outside the isolate",
          fixed(outsideIsolateMicros(perMetric), 3),
          fixed(outsideIsolateMicros(selector), 3),
          signed(outsideIsolateMicros(selector) - outsideIsolateMicros(perMetric), 3),
        ],
        [
          "workerd's CPU",
          fixed(perMetric.workerdMicros, 3),
          fixed(selector.workerdMicros, 3),
          signed(selector.workerdMicros - perMetric.workerdMicros, 3),
        ],
      ],
    ),
  ];
}
