import { drainBacklog } from "./delivery.ts";
import { startDiscardingReceiver } from "./discarding-receiver.ts";
import { bodies } from "./intake.ts";
import type { IsolateProfiler } from "./isolate-profiler.ts";
import { type LoadResult, runLoad } from "./load.ts";
import type { CpuProfile } from "./profile-summary.ts";
import type { SystemUnderTest } from "./system-under-test.ts";

/**
 * The loads the Worker's isolate is profiled under: the intake's two extremes with no observer,
 * and the delivery target's case. Each posts in a closed loop, as the intake section does.
 */
export const profileCases = [
  { id: "batched", title: "1,000-datum requests, no observers", dataPerRequest: 1_000, bodyCount: 40, observers: 0 },
  { id: "single", title: "single-datum requests, no observers", dataPerRequest: 1, bodyCount: 1_000, observers: 0 },
  {
    id: "four-observers",
    title: "1,000-datum requests to one metric with 4 HTTP observers (TOWER/JSON)",
    dataPerRequest: 1_000,
    bodyCount: 40,
    observers: 4,
  },
] as const;
export type ProfileCase = (typeof profileCases)[number];

/** What a case is run against and how long it posts for. */
export interface ProfileTarget {
  serviceUrl: string;
  system: SystemUnderTest;
  profiler: IsolateProfiler;
  concurrency: number;
  seconds: number;
}

export interface ProfileRun {
  load: LoadResult;
  /** Data accepted while the load ran. */
  data: number;
  /** How long the consumer took after the load until the queue was drained, profiled too. */
  drainSeconds: number;
  profile: CpuProfile;
}

/** Unprofiled first: compiling the path, creating the metric's object, is not what is measured. */
const warmUpSeconds = 2;
/** How long the data of a case may take to go through the queue. */
const drainTimeoutSeconds = 120;

/**
 * Profiles the isolate while `profileCase` posts for `seconds` and then until the consumer has
 * taken what was posted (a probe through the queue arrived), so that a datum's whole path is in
 * the profile; the queue is drained of earlier data before profiling starts.
 */
export async function runProfileCase(target: ProfileTarget, profileCase: ProfileCase): Promise<ProfileRun> {
  const { serviceUrl, system, profiler, concurrency, seconds } = target;
  const metric = `bench-profile-${profileCase.id}`;
  const receivers = await Promise.all(
    Array.from({ length: profileCase.observers }, () => startDiscardingReceiver("TOWER/JSON")),
  );
  try {
    const unobserve = await system.observe(metric, receivers);
    try {
      const requestBodies = bodies(profileCase.bodyCount, profileCase.dataPerRequest, metric);
      const post = (forSeconds: number) =>
        runLoad({
          url: `${serviceUrl}/monitoringdata`,
          method: "POST",
          bodies: requestBodies,
          expectedStatus: 204,
          concurrency,
          seconds: forSeconds,
        });
      await post(warmUpSeconds);
      await drainBacklog(system, drainTimeoutSeconds);
      const { result, profile } = await profiler.profile(async () => {
        const load = await post(seconds);
        return { load, drainSeconds: await drainBacklog(system, drainTimeoutSeconds) };
      });
      const data = (result.load.requests - result.load.errors) * profileCase.dataPerRequest;
      return { ...result, data, profile };
    } finally {
      await unobserve();
    }
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}
