import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * Tests in test/<name>/ run inside workerd against the Worker of wrangler.toml, with `bindings`
 * on top of its vars. Every setting a project depends on is given explicitly, so that a
 * developer's .dev.vars cannot change what it tests.
 */
function workerProject(name: string, bindings: Record<string, string>) {
  return {
    plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, miniflare: { bindings } })],
    // A file's first request starts its workerd isolate, which takes seconds on a loaded 2-core machine.
    test: { name, include: [`test/${name}/**/*.test.ts`], testTimeout: 20_000 },
  };
}

export default defineConfig({
  test: {
    projects: [
      // The Worker, its Durable Objects and queues, open as in local development.
      workerProject("worker", {
        AUTH_DISABLED: "true",
        ALLOW_PRIVATE_OBSERVERS: "true",
        RETRY_BASE_DELAY_SECONDS: "0",
      }),
      // As deployed: bearer tokens of both roles, two admin tokens (rotation), public observers only.
      workerProject("worker-auth", {
        ADMIN_TOKEN: "admin-1, admin-2",
        INGEST_TOKEN: "ingest-1",
        AUTH_DISABLED: "false",
        ALLOW_PRIVATE_OBSERVERS: "false",
      }),
      // Deployed without any token and without AUTH_DISABLED: it must refuse to run open.
      workerProject("worker-unconfigured", { ADMIN_TOKEN: "", INGEST_TOKEN: "", AUTH_DISABLED: "false" }),
      // Small limits, to reach each of them with small requests.
      workerProject("worker-limits", {
        AUTH_DISABLED: "true",
        ALLOW_PRIVATE_OBSERVERS: "true",
        MAX_BODY_BYTES: "4096",
        MAX_DATA_PER_REQUEST: "3",
        MAX_OBSERVERS_PER_METRIC: "2",
        MAX_METRIC_NAME_LENGTH: "16",
      }),
      {
        // The relay, the launcher and end-to-end runs against `wrangler dev`, in Node.
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
