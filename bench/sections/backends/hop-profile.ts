import type { BackendReceiver } from "../../load/receivers/backend-receiver.ts";
import type { IntakeRequests } from "../../load/requests/intake-requests.ts";
import { lostSamples, microsPerSample, runDeliveredRound } from "../../load/rounds/delivered-round.ts";
import { registerSelectorObserver } from "../../load/selector-observer-client.ts";
import { withProfiledWorker } from "../../profile/profiled-worker.ts";
import { type StageFigures, stageMicrosPer } from "../../profile/round-profile.ts";
import { attributeFrame, idle } from "../../profile/stages.ts";
import { type FunctionTime, selfTimeByFunction } from "../../profile/summary.ts";
import { afterConsumer, countsBetween } from "../../runtime/usage.ts";

/** The platform operations a profiled round counts. */
const operations = ["queueMessagesWritten", "durableObjectRequests", "outboundRequests"] as const;
type Operation = (typeof operations)[number];

/** The functions listed. */
const topFunctions = 12;

/** One profiled round of the hop, per sample accepted. */
export interface HopProfile extends StageFigures {
  samples: number;
  lost: number;
  /** The platform operations the Worker counted over the round. */
  operations: Record<Operation, number>;
  functions: FunctionTime[];
}

/**
 * One round of the hop (`match` one PROMETHEUS selector observer's, to `receiver`) on a Worker of
 * its own, as deployed but with workerd's inspector open (which may cost the isolate time: the
 * measured rounds have a Worker without it), after an unprofiled warm-up: the isolate profiled from
 * the first post until the last sample arrived, and workerd's CPU time over the same stretch.
 */
export async function profileHop(
  match: readonly string[],
  receiver: BackendReceiver,
  bodies: { warmUp: IntakeRequests; round: IntakeRequests },
): Promise<HopProfile> {
  return withProfiledWorker(async ({ serviceUrl, profiler, runtime }) => {
    await registerSelectorObserver(serviceUrl, match, receiver);
    await runDeliveredRound({ baseUrl: serviceUrl, requests: bodies.warmUp, receiver, groups: {} });
    const before = await afterConsumer(serviceUrl);
    const { result: round, profile } = await profiler.profile(() =>
      runDeliveredRound({ baseUrl: serviceUrl, requests: bodies.round, receiver, groups: { workerd: runtime } }),
    );
    const after = await afterConsumer(serviceUrl);
    return {
      samples: round.accepted,
      lost: lostSamples(round),
      stageMicros: stageMicrosPer(profile, round.accepted),
      workerdMicros: microsPerSample(round, "workerd"),
      operations: countsBetween(before, after, operations),
      functions: selfTimeByFunction(profile, attributeFrame, topFunctions, new Set([idle])),
    };
  });
}
