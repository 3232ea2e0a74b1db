import { readlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { localEntryModule } from "./local-entry.ts";
import { localWranglerConfig, writeLocalWranglerConfig } from "./local-wrangler-config.ts";
import { projectRoot } from "./project.ts";

it("makes the local entry the main module, adds the journal's binding and class, and makes paths absolute", () => {
  const raw = {
    name: "tower-edge",
    main: "src/worker/index.ts",
    assets: { directory: "./public", binding: "ASSETS" },
    build: { command: "node build.mjs" },
    durable_objects: { bindings: [{ name: "METRIC", class_name: "MetricObject" }] },
    migrations: [{ tag: "v1", new_sqlite_classes: ["MetricObject"] }],
  };
  expect(localWranglerConfig(raw)).toEqual({
    name: "tower-edge",
    main: join(projectRoot, localEntryModule),
    assets: { directory: join(projectRoot, "public"), binding: "ASSETS" },
    build: { command: "node build.mjs", cwd: projectRoot, watch_dir: [join(projectRoot, "src")] },
    durable_objects: {
      bindings: [
        { name: "METRIC", class_name: "MetricObject" },
        { name: "INTAKE_JOURNAL_SHARD", class_name: "IntakeJournal" },
      ],
    },
    migrations: [
      { tag: "v1", new_sqlite_classes: ["MetricObject"] },
      { tag: "local-intake-journal", new_sqlite_classes: ["IntakeJournal"] },
    ],
  });
});

it("writes a configuration wrangler reads as wrangler.toml's Worker inside the local entry, the settings files linked beside it", async () => {
  const path = await writeLocalWranglerConfig();

  const config = unstable_readConfig({ config: path });
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  expect(main).toBe(join(projectRoot, localEntryModule));
  expect(config.name).toBe("tower-edge");
  expect(workerOptions.durableObjects).toMatchObject({
    METRIC: { className: "MetricObject", useSQLite: true },
    INTAKE_JOURNAL_SHARD: { className: "IntakeJournal", useSQLite: true },
  });
  expect(workerOptions.assets).toMatchObject({ directory: join(projectRoot, "public") });
  expect(await readlink(join(dirname(path), ".dev.vars"))).toBe(join(projectRoot, ".dev.vars"));
});
