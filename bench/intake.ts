import { rdfJsonBody } from "../tools/testing/monitoring-data.ts";
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

/**
 * The ratio's two rows run in alternating rounds, so that the drift of a shared machine weighs on
 * both alike; each row's figure is its requests over its seconds, summed over the rounds.
 */
const ratioRounds = 6;

function combined(results: readonly LoadResult[]): LoadResult {
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const seconds = results.reduce((sum, result) => sum + result.seconds, 0);
  const errors = results.reduce((sum, result) => sum + result.errors, 0);
  return { requests, seconds, perSecond: requests / seconds, errors };
}

/** How long the backlog the intake rows leave may take to drain before the next section starts. */
const backlogTimeoutSeconds = 300;

/** Closed-loop intake throughput: requests/s of GET /healthz and of POST /monitoringdata at three sizes. */
export const intakeSection: BenchSection = async ({ settings, serviceUrl, towerEdge, progress }) => {
  const { concurrency, seconds } = settings;
  const intake = `${serviceUrl}/monitoringdata`;
  const load = (method: "GET" | "POST", url: string, requestBodies?: string[], rowSeconds = seconds) =>
    runLoad({
      url,
      method,
      bodies: requestBodies,
      expectedStatus: method === "GET" ? 200 : 204,
      concurrency,
      seconds: rowSeconds,
    });
  const single = bodies(1000, 1, "bench-intake");
  progress("intake: warm-up");
  // Warm-up: compile paths, create the metric's object and the queue.
  await load("POST", intake, single);

  progress("intake: measuring");
  const roundSeconds = seconds / 2;
  const healthRounds: LoadResult[] = [];
  const singlePostRounds: LoadResult[] = [];
  for (let round = 0; round < ratioRounds; round++) {
    healthRounds.push(await load("GET", `${serviceUrl}/healthz`, undefined, roundSeconds));
    singlePostRounds.push(await load("POST", intake, single, roundSeconds));
  }
  const health = combined(healthRounds);
  const singlePost = combined(singlePostRounds);
  const roundRatios = singlePostRounds.map((post, round) => post.perSecond / healthRounds[round]!.perSecond);
  progress(`intake: POST/GET ratio by round ${roundRatios.map((ratio) => fixed(ratio, 2)).join(", ")}`);
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
    `Intake: closed loop of ${concurrency} clients, ${seconds} s per row; the first two rows alternate in ` +
      `${ratioRounds} rounds of ${fixed(roundSeconds, 1)} s each.`,
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
    `Single-datum POST / GET /healthz requests/s ratio: **${fixed(singlePost.perSecond / health.perSecond, 2)}** ` +
      `(rounds from ${fixed(Math.min(...roundRatios), 2)} to ${fixed(Math.max(...roundRatios), 2)})`,
    "",
    `The data accepted above were all through the queue ${fixed(drainSeconds, 1)} s after the last row ended ` +
      "(a probe datum posted then reached an observer of another metric).",
  ];
};
