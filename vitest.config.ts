import { availableParallelism } from "node:os";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { readDeliveryAttemptLine } from "./src/shared/delivery-attempt-line.ts";
import { localDurableObjects, localEntryModule } from "./tools/start/local-entry.ts";
import { SlowestFilesReporter } from "./tools/testing/slowest-files-reporter.ts";

/**
 * A project of tests that run inside workerd against the Worker of wrangler.toml (or, `local`, the
 * local launchers' entry around it, with its intake journal), with `bindings` on top of its vars. Every setting a project depends on is given explicitly, so that a
 * developer's .dev.vars cannot change what it tests.
 */
function workerProject(
  name: string,
  include: string[],
  bindings: Record<string, string>,
  files: { exclude?: string[]; isolate?: boolean; benchmark?: { include: string[] } } = {},
  local = false,
) {
  return {
    plugins: [
      cloudflareTest({
        ...(local && { main: localEntryModule }),
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings, ...(local && { durableObjects: localDurableObjects }) },
      }),
    ],
    test: {
      name,
      include,
      ...files,
      // A file's first request starts its workerd isolate, which takes seconds on a loaded 2-core machine.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      onConsoleLog: withoutAttemptLines,
    },
  };
}

/** The Worker's own tests: its modules' unit tests beside them, and its API's. */
const workerTests = ["src/worker/**/*.test.ts", "test/api/**/*.test.ts"];

/**
 * The Worker's test files that need a runtime of their own (a Miniflare, its storage and its
 * isolate), named one by one with the reason. The others run one after another in one runtime per
 * vitest worker, with the Worker's modules loaded once: each names the metrics, rules and
 * resources it creates uniquely and reads back only what it created, as a user of a shared service would.
 */
const workerTestsOwningTheirRuntime = [
  // They count or list everything the service holds or does: its usage (the Durable Object requests,
  // queue messages and data of every file's background work too), every metric, the whole model, every rule.
  "test/api/usage.test.ts",
  "src/worker/intake/metric-registry.test.ts",
  "src/worker/intake/queue-message.test.ts",
  "test/api/agents/unavailable.test.ts",
  "src/worker/metrics/metric-catalog.test.ts",
  "test/api/resources.test.ts",
  "test/api/monitoring-rules.test.ts",
  // A refused request must leave every view of the state as it was; another file's queued data and
  // rule windows, still at work in the background, would move them meanwhile.
  "test/api/fuzz/*.test.ts",
  "test/api/robustness-*.test.ts",
  // They watch every outbound request or move the isolate's clock, which another file's deliveries
  // and retries, due in the background, would reach.
  "src/worker/delivery/fan-out.test.ts",
  "src/worker/delivery/intake-consumer.test.ts",
  "src/worker/delivery/transports/dispatch.test.ts",
  "src/worker/metrics/metric-object.test.ts",
  "src/worker/metrics/delivery-ledger.test.ts",
  "test/api/observer-operations.test.ts",
  "test/api/observer-retry.test.ts",
  "test/api/secrets.test.ts",
  "src/worker/observers/selector-observers.test.ts",
  "src/worker/delivery/backend-answers.test.ts",
];

/** Vars as in local development: open, observers allowed on private addresses. */
const localDevelopment = { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" };
/** The Worker's own tests: as in local development, with plan leases that end within the tests' waits. */
const workerTesting = { ...localDevelopment, PLAN_LEASE_MS: "2000" };

/** Builds the static assets once per run, for the services the tests start (they skip the build). */
const builtAssets = "test/e2e/support/built-assets.ts";

/**
 * End-to-end tests, with `env` on top of this process's: TOWER_E2E_SERVER chooses the server
 * that runs the Worker (test/e2e/support/local-server.ts). Every run takes ports and a state
 * directory of its own, so the projects can run side by side.
 */
function e2eProject(name: string, include: string[], env: Record<string, string>) {
  return {
    test: {
      name,
      include,
      environment: "node",
      env,
      testTimeout: 60_000,
      hookTimeout: 120_000,
      globalSetup: [builtAssets],
      // Each file imports wrangler and Miniflare, seconds of work; a worker that runs several files
      // imports them once. The files share no state: each starts and stops its own service.
      isolate: false,
    },
  };
}

/** The Worker logs a line per delivery attempt (for Workers Logs); in test output they are noise. */
function withoutAttemptLines(log: string): false | undefined {
  return readDeliveryAttemptLine(log.trim()) ? false : undefined;
}

export default defineConfig({
  test: {
    reporters: ["default", new SlowestFilesReporter()],
    // The tests wait on processes, sockets and timers more than they compute: with one file per core
    // the cores were often idle, so half as many files again as there are cores. A number, because
    // vitest caps a percentage at the number of cores.
    maxWorkers: Math.ceil(availableParallelism() * 1.5),
    projects: [
      // The Worker's modules (unit tests beside them) and its API, open as in local development.
      workerProject("worker", workerTests, workerTesting, {
        exclude: workerTestsOwningTheirRuntime,
        isolate: false,
        // The parsers' micro-benchmarks beside them (`npm run bench:parsers`), in workerd as deployed.
        benchmark: { include: ["src/worker/**/*.bench.ts"] },
      }),
      workerProject("worker-own-runtime", workerTestsOwningTheirRuntime, workerTesting),
      // The local entry (src/local/) around the Worker, as the local launchers run it, each file in a
      // runtime of its own: a drain, once started, refuses all writes after it.
      workerProject(
        "local",
        ["src/local/**/*.test.ts"],
        { ...localDevelopment, LOCAL_CONTROL_TOKEN: "local-control-token-of-the-tests" },
        {},
        true,
      ),
      // As deployed: bearer tokens of both roles, two admin tokens (rotation), public observers only.
      workerProject("auth", ["test/configurations/auth/**/*.test.ts"], {
        ADMIN_TOKEN: "admin-1, admin-2",
        INGEST_TOKEN: "ingest-1",
        AUTH_DISABLED: "false",
        ALLOW_PRIVATE_OBSERVERS: "false",
      }),
      // Deployed without any token and without AUTH_DISABLED: it must refuse to run open.
      workerProject("unconfigured", ["test/configurations/unconfigured/**/*.test.ts"], {
        ADMIN_TOKEN: "",
        INGEST_TOKEN: "",
        AUTH_DISABLED: "false",
      }),
      // Small limits, to reach each of them with small requests.
      workerProject("limits", ["test/configurations/limits/**/*.test.ts"], {
        AUTH_DISABLED: "true",
        ALLOW_PRIVATE_OBSERVERS: "true",
        MAX_BODY_BYTES: "4096",
        MAX_DATA_PER_REQUEST: "3",
        MAX_OBSERVERS_PER_METRIC: "2",
        MAX_METRIC_NAME_LENGTH: "16",
        MAX_AGENT_DATA_PER_REQUEST: "5",
        MAX_DECOMPRESSED_BYTES: "65536",
      }),
      {
        // Node-side modules: the relay, the shared code, the launcher and the bench's helpers.
        test: {
          name: "node",
          include: ["src/relay/**/*.test.ts", "src/shared/**/*.test.ts", "tools/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The files mock no module and keep no state between them; a worker that runs several
          // imports Miniflare, wrangler's helpers and the relay once.
          isolate: false,
        },
      },
      // End to end: the local service, the relay, real receivers, interop servers; as `npm start`
      // runs the Worker (or as TOWER_E2E_SERVER says).
      e2eProject("e2e", ["test/e2e/**/*.test.ts"], {}),
      // Again as `npm run dev` runs it (wrangler dev, its proxy in front), but only the files where
      // the two servers can differ: both run the same Worker in the same workerd and Miniflare, and
      // differ in how they start and stop it, what stands in front of it, and how they set up its
      // queue and static assets. Named one by one, so that a new file runs here only when chosen.
      e2eProject(
        "e2e-dev",
        [
          // Start: each server sets up the static assets (dashboard, docs page) itself.
          "test/e2e/static-assets.test.ts",
          // Body limits: wrangler dev's proxy receives the bodies first and passes them on.
          "test/e2e/body-limit.test.ts",
          // Stop and start on the same state: each server's on-disk layout, alarms resuming after it.
          "test/e2e/observers-restart.test.ts",
          // A crash: each launcher's process tree under SIGKILL, and the intake journal it replays at
          // start. Also the queues: 5,000 data through intake, the local queue (each server configures
          // its own), the consumer and an HTTP observer.
          "test/e2e/restart-crash.test.ts",
        ],
        { TOWER_E2E_SERVER: "dev" },
      ),
      {
        // The dashboard in Debian's Chromium (skipped without it), on the local service as `npm start` runs it.
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: [builtAssets],
        },
      },
    ],
  },
});
