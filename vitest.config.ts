import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // The Worker, its Durable Objects and queues, run inside workerd.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                AUTH_DISABLED: "true",
                ALLOW_PRIVATE_OBSERVERS: "true",
                RETRY_BASE_DELAY_SECONDS: "0",
              },
            },
          }),
        ],
        test: { name: "worker", include: ["test/worker/**/*.test.ts"] },
      },
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
