import { rdfJsonBody } from "../test/support/monitoring-data.ts";
import { drainBacklog } from "./delivery.ts";
import { type LoadResult, runLoad } from "./load.ts";
import { fixed, markdownTable } from "./markdown.ts";
import type { BenchSection } from "./section.ts";

/** Distinct request bodies of `size` data each for metric `metric`. */
export function bodies(count: number, size: number, metric: string): string[] {
  const timestamp = Date.now();
  return Array.from({ length: count }, (_, request) =>
    JSON.stringify(
      rdfJsonBody(
        Array.from({ length: size }, (_, index) => ({
          id: `r${request}-${index}`,
          metric,
          timestamp: timestamp + index,
          value: Math.random(),
          resourceId: `vm${index % 50}`,
        })),
      ),
    ),
  );
}

/** How long the backlog the intake rows leave may take to drain before the next section starts. */
const backlogTimeoutSeconds = 300;

/** Closed-loop intake throughput: requests/s of GET /healthz and of POST /monitoringdata at three sizes. */
export const intakeSection: BenchSection = async ({ settings, serviceUrl, towerEdge, progress }) => {
  const { concurrency, seconds } = settings;
  const intake = `${serviceUrl}/monitoringdata`;
  const load = (method: "GET" | "POST", url: string, requestBodies?: string[]) =>
    runLoad({ url, method, bodies: requestBodies, expectedStatus: method === "GET" ? 200 : 204, concurrency, seconds });
  const single = bodies(1000, 1, "bench-intake");
  progress("intake: warm-up");
  // Warm-up: compile paths, create the metric's object and the queue.
  await load("POST", intake, single);

  progress("intake: measuring");
  const health = await load("GET", `${serviceUrl}/healthz`);
  const singlePost = await load("POST", intake, single);
  const hundred = await load("POST", intake, bodies(200, 100, "bench-intake"));
  const thousand = await load("POST", intake, bodies(40, 1000, "bench-intake"));
  progress("intake: waiting for the backlog to drain");
  const drainSeconds = await drainBacklog(towerEdge, backlogTimeoutSeconds);

  const row = (name: string, result: LoadResult, dataPerRequest: number) => [
    name,
    fixed(result.perSecond),
    fixed(result.perSecond * dataPerRequest),
    String(result.errors),
  ];
  return [
    `Intake: closed loop of ${concurrency} clients, ${seconds} s per row.`,
    "",
    ...markdownTable(
      ["intake", "requests/s", "data/s", "errors"],
      [
        row("GET /healthz", health, 0),
        row("POST /monitoringdata, 1 datum", singlePost, 1),
        row("POST /monitoringdata, 100 data", hundred, 100),
        row("POST /monitoringdata, 1,000 data", thousand, 1000),
      ],
    ),
    "",
    `Single-datum POST / GET /healthz requests/s ratio: **${fixed(singlePost.perSecond / health.perSecond, 2)}**`,
    "",
    `The data accepted above were all through the queue ${fixed(drainSeconds, 1)} s after the last row ended ` +
      "(a probe datum posted then reached an observer of another metric).",
  ];
};
