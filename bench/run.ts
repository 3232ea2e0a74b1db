import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { readRelayConfig } from "../src/relay/config.ts";
import { startLocalWorker } from "../tools/start/local-worker.ts";
import { startRelayChild } from "../tools/start/relay-child.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { deliverySection } from "./delivery-report.ts";
import { connectInfluxDb } from "./influxdb.ts";
import { intakeSection } from "./intake.ts";
import { isolationSection } from "./isolation.ts";
import { fixed } from "./markdown.ts";
import { platformOperationsSection } from "./platform-operations.ts";
import type { BenchContext, BenchSection } from "./section.ts";
import { benchSettingsSchema } from "./settings.ts";
import { towerEdge } from "./tower-edge.ts";

/*
 * The report's parts, run and written in this order. The intake table stays first: the intake
 * ratio at its end is the headline figure.
 */
const sections: readonly BenchSection[] = [intakeSection, platformOperationsSection, deliverySection, isolationSection];

function commitMeasured(): string {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  const dirty = execSync("git status --porcelain --untracked-files=no").toString().trim() !== "";
  return dirty ? `${commit} with uncommitted changes` : commit;
}

async function main() {
  const started = performance.now();
  const settings = benchSettingsSchema.parse(process.env);
  const relayToken = randomBytes(24).toString("base64url");
  // The relay in a process of its own, as in production and under npm start, so that its work and
  // the bench's receivers and clients do not share one event loop.
  const relayEnv = { RELAY_PORT: String(await freePort()), RELAY_TOKEN: relayToken, RELAY_ALLOW_PRIVATE: "true" };
  const relay = await startRelayChild({ ...process.env, ...relayEnv }, readRelayConfig(relayEnv));
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-bench-"));
  // The Worker as npm start runs it: Miniflare driving workerd, nothing in between.
  const worker = await startLocalWorker({
    port: await freePort(),
    stateDir,
    verbose: false,
    bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true", RELAY_URL: relay.url, RELAY_TOKEN: relayToken },
  });
  const bench: BenchContext = {
    settings,
    serviceUrl: worker.url,
    towerEdge: towerEdge(worker.url),
    influxDb: await connectInfluxDb(settings.influxDbUrl),
    progress: (note) => console.error(note),
  };
  const lines = [
    `Measured ${new Date().toISOString()} on commit ${commitMeasured()}, ${cpus().length} cores, against ` +
      "the Worker as `npm start` runs it (Miniflare driving workerd), the relay in a Node process of its own.",
    "",
  ];
  console.log(lines.join("\n"));
  try {
    for (const section of sections) {
      const sectionLines = await section(bench);
      console.log([...sectionLines, ""].join("\n"));
      lines.push(...sectionLines, "");
    }
  } finally {
    await bench.towerEdge.close();
    await bench.influxDb?.close();
    await worker.dispose();
    await relay.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
  const duration = `The whole run took ${fixed((performance.now() - started) / 1000)} s.`;
  console.log(duration);
  lines.push(duration);
  await writeFile(
    new URL("../docs/BENCHMARKS.md", import.meta.url),
    `# Benchmarks\n\nWritten by \`npm run bench\` (bench/run.ts); figures from one run, so ratios compare like with like.\n\n${lines.join("\n")}\n`,
  );
}

await main();
