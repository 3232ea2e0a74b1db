import type { LoadResult } from "../load/closed-loop.ts";
import { startDiscardingReceiver } from "../load/receivers/discarding-receiver.ts";
import { telegrafCpuBodies } from "../load/requests/agent-batches.ts";
import { otlpRequests, remoteWriteRequests, telegrafRequests } from "../load/requests/agent-requests.ts";
import { type IntakeRequests, rdfJsonRequests, sendRequests } from "../load/requests/intake-requests.ts";
import { drainBacklog } from "../load/rounds/delivery-case.ts";
import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import type { IsolateProfiler } from "./isolate-profiler.ts";
import type { CpuProfile } from "./summary.ts";

/** A load the Worker's isolate is profiled under: its requests, given the metric the case observes. */
export interface ProfileCase {
  id: string;
  title: string;
  requests(metric: string): IntakeRequests | Promise<IntakeRequests>;
  /** HTTP observers of the case's metric. */
  observers: number;
}

/** `GET /healthz`: what a request costs the Worker beyond the platform's floor, without data. */
const healthRequests: IntakeRequests = {
  method: "GET",
  path: "/healthz",
  bodies: [],
  contentType: "application/json",
  expectedStatus: 200,
  dataPerRequest: 0,
};

/**
 * The loads the Worker's isolate is profiled under: `GET /healthz`, the intake's two extremes with no observer,
 * the delivery target's case, and each agent's requests as the agent-intake section posts them
 * (their metrics are their own, with no observer). Each posts in a closed loop, as the intake
 * section does.
 */
export const profileCases: readonly ProfileCase[] = [
  {
    id: "healthz",
    title: "`GET /healthz`",
    requests: () => healthRequests,
    observers: 0,
  },
  {
    id: "batched",
    title: "1,000-datum requests, no observers",
    requests: (metric) => rdfJsonRequests(40, 1_000, metric),
    observers: 0,
  },
  {
    id: "single",
    title: "single-datum requests, no observers",
    requests: (metric) => rdfJsonRequests(1_000, 1, metric),
    observers: 0,
  },
  {
    id: "four-observers",
    title: "1,000-datum requests to one metric with 4 HTTP observers (TOWER/JSON)",
    requests: (metric) => rdfJsonRequests(40, 1_000, metric),
    observers: 4,
  },
  {
    id: "line-protocol",
    title: "line protocol, Telegraf's cpu batches of 10,000 fields (`POST /write`), no observers",
    requests: () => telegrafRequests(telegrafCpuBodies(8), "identity"),
    observers: 0,
  },
  {
    id: "remote-write",
    title: "Prometheus remote write, node_exporter's 2,000 series a request (`POST /api/v1/write`), no observers",
    requests: () => remoteWriteRequests(8),
    observers: 0,
  },
  {
    id: "otlp",
    title:
      "OTLP/HTTP protobuf, the OpenTelemetry SDK's exports of 1,000 points (`POST /otlp/v1/metrics`), no observers",
    requests: () => otlpRequests(8),
    observers: 0,
  },
];

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
  /** Requests answered with success while the load ran. */
  answered: number;
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
      const requests = await profileCase.requests(metric);
      const post = (forSeconds: number) => sendRequests(serviceUrl, requests, { concurrency, seconds: forSeconds });
      await post(warmUpSeconds);
      await drainBacklog(system, drainTimeoutSeconds);
      const { result, profile } = await profiler.profile(async () => {
        const load = await post(seconds);
        return { load, drainSeconds: await drainBacklog(system, drainTimeoutSeconds) };
      });
      const answered = result.load.requests - result.load.errors;
      return { ...result, data: answered * requests.dataPerRequest, answered, profile };
    } finally {
      await unobserve();
    }
  } finally {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}
