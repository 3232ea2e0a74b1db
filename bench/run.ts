import { execSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkerProcess } from "../src/local/worker-process.ts";
import { freePort } from "../test/node/support/free-port.ts";
import { rdfJsonBody } from "../test/support/monitoring-data.ts";
import { type DeliveryBenchResult, runDeliveryBench } from "./delivery.ts";
import { type LoadResult, runLoad } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

/** Distinct request bodies of `size` data each for metric `metric`. */
function bodies(count: number, size: number, metric: string): string[] {
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

function commitMeasured(): string {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  const dirty = execSync("git status --porcelain --untracked-files=no").toString().trim() !== "";
  return dirty ? `${commit} with uncommitted changes` : commit;
}

const fixed = (value: number, digits = 0) => value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const persistTo = await mkdtemp(join(tmpdir(), "tower-edge-bench-"));
  const worker = await startWorkerProcess({
    port: await freePort(),
    persistTo,
    stdio: "ignore",
    vars: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" },
  });
  const lines: string[] = [];
  const report = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  try {
    const intake = `${worker.url}/monitoringdata`;
    const load = (method: "GET" | "POST", url: string, requestBodies?: string[]) =>
      runLoad({ url, method, bodies: requestBodies, expectedStatus: method === "GET" ? 200 : 204, concurrency, seconds });
    const single = bodies(1000, 1, "bench-intake");
    // Warm-up: compile paths, create the metric's object and the queue.
    await load("POST", intake, single);

    const health = await load("GET", `${worker.url}/healthz`);
    const singlePost = await load("POST", intake, single);
    const hundred = await load("POST", intake, bodies(200, 100, "bench-intake"));
    const thousand = await load("POST", intake, bodies(40, 1000, "bench-intake"));

    const row = (name: string, result: LoadResult, dataPerRequest: number) =>
      `| ${name} | ${fixed(result.perSecond)} | ${fixed(result.perSecond * dataPerRequest)} | ${result.errors} |`;
    report(`Measured ${new Date().toISOString()} on commit ${commitMeasured()}, ${cpus().length} cores, ` +
      `closed loop of ${concurrency} clients, ${seconds} s per row, against \`wrangler dev\` (local workerd).`);
    report("");
    report("| intake | requests/s | data/s | errors |");
    report("|---|---:|---:|---:|");
    report(row("GET /healthz", health, 0));
    report(row("POST /monitoringdata, 1 datum", singlePost, 1));
    report(row("POST /monitoringdata, 100 data", hundred, 100));
    report(row("POST /monitoringdata, 1,000 data", thousand, 1000));
    report("");
    report(`Single-datum POST / GET /healthz requests/s ratio: **${fixed(singlePost.perSecond / health.perSecond, 2)}**`);
    report("");

    const deliveryRate = Number(process.env.BENCH_DELIVERY_RATE ?? 20_000);
    const deliveries: DeliveryBenchResult[] = [];
    for (const observers of [1, 10]) {
      deliveries.push(
        await runDeliveryBench({
          serviceUrl: worker.url,
          metric: `bench-delivery-${observers}`,
          observers,
          rate: deliveryRate,
          dataPerRequest: 100,
          seconds,
          drainSeconds: 30,
        }),
      );
    }
    report(`Delivery: ${fixed(deliveryRate)} data/s posted for ${seconds} s in 100-datum requests to one metric ` +
      "with N HTTP observers (GRAPHITE); latency from POST to arrival at the observer.");
    report("");
    report("| HTTP observers | data posted | delivered data/s | p50 ms | p99 ms | lost | duplicates |");
    report("|---:|---:|---:|---:|---:|---:|---:|");
    for (const result of deliveries) {
      report(`| ${result.observers} | ${fixed(result.posted)} | ${fixed(result.deliveredPerSecond)} | ` +
        `${fixed(result.p50)} | ${fixed(result.p99)} | ${result.lost} | ${result.duplicates} |`);
    }
  } finally {
    await worker.stop();
    await rm(persistTo, { recursive: true, force: true });
  }
  await writeFile(
    new URL("../docs/BENCHMARKS.md", import.meta.url),
    `# Benchmarks\n\nWritten by \`npm run bench\` (bench/run.ts); figures from one run, so ratios compare like with like.\n\n${lines.join("\n")}\n`,
  );
}

await main();
