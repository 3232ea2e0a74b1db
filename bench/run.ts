import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { readRelayConfig } from "../src/relay/config.ts";
import { startLocalWorker } from "../tools/start/local-worker.ts";
import { startRelayChild } from "../tools/start/relay-child.ts";
import { workerdV8Flags } from "../tools/start/workerd-wrapper.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { connectInfluxDb } from "./load/systems/influxdb.ts";
import { towerEdge } from "./load/systems/tower-edge.ts";
import { fixed } from "./report/markdown.ts";
import { TargetBoard } from "./report/targets.ts";
import { startPlatformFloor } from "./runtime/platform-floor.ts";
import type { BenchProcesses } from "./runtime/process-accounting.ts";
import { findDescendants, ProcessGroup } from "./runtime/process-accounting.ts";
import { agentIntakeSection } from "./sections/agents.ts";
import { backendsSection } from "./sections/backends.ts";
import { deliverySection } from "./sections/delivery.ts";
import { fourObserversSection } from "./sections/four-observers.ts";
import { intakeSection } from "./sections/intake.ts";
import { isolationSection } from "./sections/isolation.ts";
import { platformOperationsSection } from "./sections/operations.ts";
import { profileSection } from "./sections/profile.ts";
import { rulesSection } from "./sections/rules.ts";
import type { BenchContext, BenchSection } from "./sections/section.ts";
import { selectorObserversSection } from "./sections/selectors.ts";
import { soakSection } from "./sections/soak.ts";
import { type BenchSectionName, benchEnvironment, benchSettingsSchema, sectionNames } from "./settings.ts";

/*
 * The report's parts, run and written in the order of sectionNames (BENCH_SECTIONS picks some).
 * The intake table stays first: the intake ratio at its end is the headline figure. The agents'
 * intake comes last: what it writes to InfluxDB leaves that busy compacting for a while. The
 * selectors section runs after the soak, whose memory its 1,000 metrics must not weigh on; the
 * backends section after it starts an `npm start` of its own and stops it before its other cases. The
 * Targets table follows them all.
 */
const sections: Record<BenchSectionName, BenchSection> = {
  intake: intakeSection,
  operations: platformOperationsSection,
  delivery: deliverySection,
  "four-observers": fourObserversSection,
  profile: profileSection,
  rules: rulesSection,
  isolation: isolationSection,
  soak: soakSection,
  selectors: selectorObserversSection,
  backends: backendsSection,
  agents: agentIntakeSection,
};

/** The relay's entry point, as relay-child.ts starts it: how its process is told from other Node processes. */
const relayEntry = "src/relay/main.ts";

/**
 * The Worker runtime and the relay this process started (its descendants in the kernel's process
 * table: workerd by name, the relay by its entry point), and this process itself.
 */
function benchProcesses(): BenchProcesses {
  const bench = { pid: process.pid, comm: "node", cmdline: process.argv.join(" ") };
  return {
    worker: new ProcessGroup(
      "workerd",
      findDescendants(process.pid, (child) => child.comm === "workerd"),
    ),
    relay: new ProcessGroup(
      "the relay",
      findDescendants(process.pid, (child) => child.cmdline.includes(relayEntry)),
    ),
    bench: new ProcessGroup("the bench", [bench]),
  };
}

function commitMeasured(): string {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  const dirty = execSync("git status --porcelain --untracked-files=no").toString().trim() !== "";
  return dirty ? `${commit} with uncommitted changes` : commit;
}

async function main() {
  const started = performance.now();
  const settings = benchSettingsSchema.parse(benchEnvironment(process.argv.slice(2), process.env));
  const relayToken = randomBytes(24).toString("base64url");
  // The relay in a process of its own, as in production and under npm start, so that its work and
  // the bench's receivers and clients do not share one event loop.
  const relayEnv = { RELAY_PORT: String(await freePort()), RELAY_TOKEN: relayToken, RELAY_ALLOW_PRIVATE: "true" };
  const relay = await startRelayChild({ ...process.env, ...relayEnv }, readRelayConfig(relayEnv));
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-bench-"));
  // The Worker as deployed (no local entry around it), driven as npm start drives it: Miniflare, nothing in between.
  const worker = await startLocalWorker({
    port: await freePort(),
    stateDir,
    verbose: false,
    bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true", RELAY_URL: relay.url, RELAY_TOKEN: relayToken },
    asDeployed: true,
  });
  // Found before the floor starts, whose workerd must not count as the Worker's.
  const processes = benchProcesses();
  const floor = await startPlatformFloor();
  const bench: BenchContext = {
    settings,
    serviceUrl: worker.url,
    floorUrl: floor.url,
    towerEdge: towerEdge(worker.url),
    influxDb: await connectInfluxDb(settings.influxDbUrl),
    processes,
    targets: new TargetBoard(),
    progress: (note) => console.error(note),
  };
  const { worker: runtime, relay: relayProcess } = bench.processes;
  bench.progress(`processes: ${runtime.describe()}, ${relayProcess.describe()}, bench pid ${process.pid}`);
  const chosen = sectionNames.filter((name) => settings.sections.has(name));
  const lines = [
    `Measured ${new Date().toISOString()} on commit ${commitMeasured()}, ${cpus().length} cores, against ` +
      "the Worker as `npm start` runs it (Miniflare driving workerd, with the launcher's V8 flags: " +
      `${workerdV8Flags.map((flag) => `\`${flag}\``).join(" ")}), the relay in a Node process of its own.` +
      (chosen.length < sectionNames.length ? ` Sections run (BENCH_SECTIONS): ${chosen.join(", ")}.` : ""),
    "",
  ];
  console.log(lines.join("\n"));
  try {
    for (const name of chosen) {
      const sectionLines = await sections[name](bench);
      console.log([...sectionLines, ""].join("\n"));
      lines.push(...sectionLines, "");
    }
    const targetLines = bench.targets.lines();
    console.log([...targetLines, ""].join("\n"));
    lines.push(...targetLines, "");
  } finally {
    await bench.towerEdge.close();
    await bench.influxDb?.close();
    await floor.dispose();
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
