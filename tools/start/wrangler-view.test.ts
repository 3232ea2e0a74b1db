import { join } from "node:path";
import { expect, it } from "vitest";
import { projectRoot } from "./project.ts";
import { wranglerView } from "./wrangler-view.ts";

it("reads wrangler.toml as wrangler does, in a process of its own", async () => {
  const view = await wranglerView();
  expect(view.config.name).toBe("tower-edge");
  expect(view.config.build?.command).toContain("tools/docs-assets.mjs");
  expect(view.main).toBe(join(projectRoot, "src", "worker", "index.ts"));
  expect(view.workerOptions.durableObjects).toMatchObject({ METRIC: { className: "MetricObject", useSQLite: true } });
  expect(view.workerOptions.queueConsumers).toMatchObject({ "tower-intake": { maxBatchSize: 100 } });
  expect(view.workerOptions.assets).toMatchObject({ directory: join(projectRoot, "public"), binding: "ASSETS" });
  expect(typeof view.devVars).toBe("object");
});

it("reads it once per process", () => {
  expect(wranglerView()).toBe(wranglerView());
});
