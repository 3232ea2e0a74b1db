import { rdfJsonBody } from "../../../tools/testing/monitoring-data.ts";
import { eventually, type Service, sleep } from "../../e2e/support/service.ts";

/*
 * A fleet, made through the API as an agent and an operator would: 1,000 metrics in five groups of
 * names (`node_*`, `cpu.*`, `disk_*`, `net.*`, `app-*`), 50 observers that follow selectors and 950
 * observers of one metric each, three of them paused with data waiting. Shared by the fleet-size
 * browser test and the screenshots (tools/screenshots.ts).
 */

export const fleetPrefixes = ["node_", "cpu.", "disk_", "net.", "app-"] as const;
export const fleetMetrics = 1_000;
export const fleetSelectorObservers = 50;
export const fleetMetricObservers = 950;
/** Metric observers paused with data in their backlog: the overview lists them first. */
export const fleetPausedObservers = 3;

/** The fleet's metric names: `node_metric_0`, `cpu.metric_1`, … each group a fifth of them. */
export const fleetMetricNames = Array.from(
  { length: fleetMetrics },
  (_, index) => `${fleetPrefixes[index % fleetPrefixes.length]}metric_${index}`,
);

/** Runs `work` for every item, `concurrency` at a time. */
async function inParallel<Item>(items: readonly Item[], concurrency: number, work: (item: Item) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** How often a registration is sent when its connection was closed under it. */
const registrationAttempts = 3;

/**
 * Registers something, again if the connection was closed under the request (a loaded machine's
 * service lets connections go): a registration of the same target answers the same one (200).
 */
async function register(service: Service, path: string, body: unknown, what: string): Promise<{ id: string }> {
  let answer: { status: number; body: unknown } | undefined;
  for (let attempt = 1; answer === undefined; attempt += 1) {
    answer = await service.call("POST", path, body).catch(async (error: unknown) => {
      if (!(error instanceof TypeError) || attempt === registrationAttempts) throw error;
      await sleep(500);
      return undefined;
    });
  }
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body as { id: string };
}

let sequence = 0;

/** One datum of each metric in `metrics`, in one request. */
async function postOneEach(service: Service, metrics: readonly string[]): Promise<void> {
  const now = Date.now();
  const data = metrics.map((metric, index) => ({
    id: `fleet-${++sequence}`,
    metric,
    resourceId: `host-${index % 40}`,
    value: index,
    timestamp: now,
  }));
  const answer = await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data));
  if (answer.status !== 204) throw new Error(`POST /v1/monitoringdata answered ${answer.status}`);
}

/**
 * The fleet: the selector observers first (so that their registration has no metric to tell; each
 * metric learns of them as it appears), then one request of data that registers the 1,000 metrics,
 * then the metrics' observers, registered concurrently. Resolves once the summary shows it all.
 */
export async function seedFleet(service: Service, receiverUrl: string): Promise<void> {
  await inParallel(
    Array.from({ length: fleetSelectorObservers }, (_, index) => index),
    16,
    async (index) => {
      const prefix = fleetPrefixes[index % fleetPrefixes.length]!;
      await register(
        service,
        "/v1/observers",
        {
          match: [`{__name__=~"${prefix.replace(".", "\\\\.")}metric_${index}.*"}`],
          format: "TOWER/JSON",
          callbackUrl: `${receiverUrl}/selector/${index}`,
        },
        "selector observer",
      );
    },
  );
  await postOneEach(service, fleetMetricNames);
  // The metrics' first batch consumed before their observers come, so that the two do not contend.
  await eventually(
    async () => (await service.call("GET", "/v1/summary")).body.metrics.length === fleetMetrics,
    60_000,
    {
      what: "the fleet's metrics in the summary",
    },
  );
  const observed = fleetMetricNames.slice(0, fleetMetricObservers);
  const ids = new Map<string, string>();
  await inParallel(observed, 12, async (metric) => {
    const { id } = await register(
      service,
      `/v1/metrics/${encodeURIComponent(metric)}/observers`,
      { format: "INFLUXDB", callbackUrl: `${receiverUrl}/metric/${encodeURIComponent(metric)}` },
      "metric observer",
    );
    ids.set(metric, id);
  });
  const paused = observed.slice(0, fleetPausedObservers);
  for (const metric of paused) {
    const answer = await service.call(
      "PATCH",
      `/v1/metrics/${encodeURIComponent(metric)}/observers/${ids.get(metric)}`,
      {
        state: "paused",
      },
    );
    if (answer.status !== 200) throw new Error(`pause answered ${answer.status}`);
  }
  await postOneEach(service, paused);
  await eventually(
    async () => {
      const { body } = await service.call("GET", "/v1/summary");
      const summary = body as { metrics: unknown[]; observers: { status: { backlog: number } }[] };
      return (
        summary.metrics.length === fleetMetrics &&
        summary.observers.length === fleetSelectorObservers + fleetMetricObservers &&
        summary.observers.filter((observer) => observer.status.backlog > 0).length === fleetPausedObservers
      );
    },
    90_000,
    { what: "the fleet in the summary" },
  );
}
