import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../src/worker/app";
import { type IntakeRoute, usage } from "../../../src/worker/common/usage";
import { type AgentRoute, agentRoutes } from "../support/agent-routes";
import { checkedFetch } from "../support/checked-fetch";
import { recentData } from "../support/recent-data";

const down = () => Promise.reject(new Error("down"));

const unreachableQueue = { send: down, sendBatch: down, metrics: down } satisfies Queue;

/** A metric store whose every metric fails to answer. */
const unreachableMetricStore = {
  idFromName: (name: string) => ({ name }),
  get: () => ({ ensureMetric: down }),
} as unknown as Env["METRIC"];

/** The Worker with some of its bindings replaced; its answers are checked against the OpenAPI document. */
function workerWith(bindings: Partial<Env>): typeof fetch {
  const app = createApp();
  return checkedFetch(async (request) => app.fetch(request, { ...env, ...bindings }, createExecutionContext()));
}

const outages: [what: string, bindings: Partial<Env>, message: string][] = [
  [
    "the intake queue",
    { INTAKE_QUEUE: unreachableQueue },
    "The intake queue could not be reached; resend the request.",
  ],
  [
    "the metric store",
    { METRIC: unreachableMetricStore },
    "The metric store could not be reached; resend the request.",
  ],
];

const cases = outages.flatMap(([what, bindings, message]) =>
  agentRoutes.map((route) => ({ what, bindings, message, route })),
);

const acceptedAt = (route: AgentRoute) => usage.intake[route.path as IntakeRoute].dataAccepted;

describe("agent routes when the service cannot take data", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(cases)(
    "answer 503 with Retry-After at $route.name when $what cannot be reached, accepting nothing",
    async ({ bindings, message, route }) => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const metric = `down.${route.name.replace(/\W+/g, "_")}.${Object.keys(bindings)[0]}`;
      const before = acceptedAt(route);
      const response = await workerWith(bindings)(`http://service/v1${route.path}`, {
        method: "POST",
        ...route.send(metric, 2),
      });
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await route.refusalMessage(response, 503)).toBe(message);
      expect(acceptedAt(route)).toBe(before);
      const stored = await recentData(metric);
      expect(stored.status === 404 ? [] : await stored.json()).toEqual([]);
    },
  );
});
