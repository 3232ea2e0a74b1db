import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { encodedStream } from "../support/data-collectors";
import { agentRoutes } from "./support/agent-routes";
import { request } from "./support/http";
import { metricPath } from "./support/metrics";

/** A way data come in: a request of one datum of a metric, and what the route answers. */
interface WayIn {
  name: string;
  /** The `route` label of its counters. */
  route: string;
  success: number;
  send(metric: string): { path: string; init: RequestInit & { headers: Record<string, string> } };
  /** Checks that `response` is the route's answer of `status` in its own shape, and gives its message. */
  refusalMessage(response: Response, status: 400 | 508): Promise<string>;
}

const problems = {
  400: { type: "urn:tower-edge:problem:validation-failed", title: "Request not valid" },
  508: { type: "urn:tower-edge:problem:loop-detected", title: "Loop detected" },
};

async function problemDetail(response: Response, status: 400 | 508): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = (await response.json()) as { detail: string };
  expect(problem).toMatchObject({ ...problems[status], status });
  return problem.detail;
}

const json = { "content-type": "application/json" };

const monitoringData = (path: string): WayIn => ({
  name: path,
  route: "/monitoringdata",
  success: 204,
  send: (metric) => ({
    path,
    init: {
      body: JSON.stringify(
        rdfJsonBody([{ id: "d1", metric, timestamp: 1_700_000_000_000, value: 1, resourceId: "vm1" }]),
      ),
      headers: json,
    },
  }),
  refusalMessage: problemDetail,
});

const waysIn: WayIn[] = [
  monitoringData("/monitoringdata"),
  monitoringData("/v1/results"),
  {
    name: "/streams/:stream",
    route: "/streams",
    success: 200,
    send: (metric) => ({
      path: `/streams/${encodedStream(metric)}`,
      init: { body: JSON.stringify([{ resourceId: "vm1", metric, value: 1 }]), headers: json },
    }),
    refusalMessage: problemDetail,
  },
  ...agentRoutes.map(
    (agent): WayIn => ({
      name: agent.name,
      route: agent.path,
      success: agent.success,
      send: (metric) => {
        const init = agent.send(metric, 1);
        return { path: agent.path, init: { ...init, headers: init.headers as Record<string, string> } };
      },
      refusalMessage: (response, status) => agent.refusalMessage(response, status),
    }),
  ),
];

async function thisInstance(): Promise<string> {
  const response = await request("GET", "/healthz");
  return ((await response.json()) as { instance: string }).instance;
}

/** `way`'s request of a datum of `metric`, with `tower-edge-via: via`. */
function sendVia(way: WayIn, metric: string, via: string): Promise<Response> {
  const { path, init } = way.send(metric);
  return request("POST", path, { ...init, headers: { ...init.headers, "tower-edge-via": via } });
}

async function loopsRefused(route: string): Promise<number> {
  const scrape = await (await request("GET", "/prometheus")).text();
  const sample = new RegExp(`^tower_intake_loops_refused_total\\{route="${route}"\\} (\\d+)$`, "m").exec(scrape);
  expect(sample).not.toBeNull();
  return Number(sample![1]);
}

let metrics = 0;
/** A metric name no other request of the file uses. */
const freshMetric = () => `loop.checked.${++metrics}`;

describe.each(waysIn)("intake at $name", (way) => {
  it("refuses with 508, in the route's own shape, a request whose tower-edge-via names this service; accepts nothing of it; counts it", async () => {
    const instance = await thisInstance();
    const before = await loopsRefused(way.route);
    const vias = [instance, `edge-1, ${instance}`, ` ${instance}\t,edge-2`];

    for (const via of vias) {
      const metric = freshMetric();
      const message = await way.refusalMessage(await sendVia(way, metric, via), 508);
      expect(message).toContain(`tower-edge-via names its instance ${instance}`);
      expect((await request("GET", metricPath(metric))).status).toBe(404);
    }

    expect((await loopsRefused(way.route)) - before).toBe(vias.length);
  });

  it("accepts a request whose tower-edge-via names other services only", async () => {
    const instance = await thisInstance();
    const before = await loopsRefused(way.route);

    for (const via of ["edge-1", "edge-1, edge-2", `${instance}-copy`]) {
      const metric = freshMetric();
      const response = await sendVia(way, metric, via);
      expect(response.status).toBe(way.success);
      await response.body?.cancel();
      expect((await request("GET", metricPath(metric))).status).toBe(200);
    }

    expect(await loopsRefused(way.route)).toBe(before);
  });

  it("refuses with 400, in the route's own shape, a chain of services it cannot carry on; accepts nothing of it", async () => {
    const before = await loopsRefused(way.route);
    const services = Array.from({ length: 17 }, (_, index) => `edge-${index}`).join(", ");

    for (const [via, problem] of [
      [services, "names 17 services, more than 16"],
      ["edge 1", 'names "edge 1", not an id of at most 64 visible ASCII characters'],
    ] as const) {
      const metric = freshMetric();
      const message = await way.refusalMessage(await sendVia(way, metric, via), 400);
      expect(message).toContain(`tower-edge-via ${problem}`);
      expect((await request("GET", metricPath(metric))).status).toBe(404);
    }

    expect(await loopsRefused(way.route)).toBe(before);
  });
});
