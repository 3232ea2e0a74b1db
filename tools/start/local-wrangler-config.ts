import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Unstable_RawConfig } from "wrangler";
import { journalBinding, localEntryModule } from "./local-entry.ts";
import { projectRoot } from "./project.ts";
import { wranglerView } from "./wrangler-view.ts";

/** Where the configuration `wrangler dev` runs is written, among wrangler's own files. */
const directory = join(projectRoot, ".wrangler", "local");

/**
 * The developer's settings files, which wrangler reads beside its configuration (as dev-vars.ts
 * does beside wrangler.toml): linked there from the project's.
 */
const settingsFiles = [".dev.vars", ".env", ".env.local"];

/** The migration that gives the journal its class, after wrangler.toml's. */
const journalMigrationTag = "local-intake-journal";

/**
 * wrangler.toml's configuration as `npm run dev` runs it: the local entry as its main module (the
 * Worker inside it), the intake journal's binding and class added, its paths made absolute so that
 * it holds from another directory.
 */
export function localWranglerConfig(raw: Unstable_RawConfig): Unstable_RawConfig {
  const { assets, build } = raw;
  return {
    ...raw,
    main: join(projectRoot, localEntryModule),
    ...(assets && { assets: { ...assets, directory: join(projectRoot, assets.directory ?? "") } }),
    ...(build && {
      build: {
        ...build,
        cwd: join(projectRoot, build.cwd ?? ""),
        watch_dir: [build.watch_dir ?? "src"].flat().map((watched) => join(projectRoot, watched)),
      },
    }),
    durable_objects: {
      bindings: [
        ...(raw.durable_objects?.bindings ?? []),
        { name: journalBinding.name, class_name: journalBinding.className },
      ],
    },
    migrations: [
      ...(raw.migrations ?? []),
      { tag: journalMigrationTag, new_sqlite_classes: [journalBinding.className] },
    ],
  };
}

/** Makes `path` with `write`, at a path of its own, then moves it in place: launchers starting at once each make the same files. */
async function replace(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await write(temporary);
  await rename(temporary, path);
}

/**
 * Writes the configuration of `localWranglerConfig` under .wrangler/local, with links to the
 * developer's settings files beside it, and resolves with its path, for `wrangler dev --config`.
 */
export async function writeLocalWranglerConfig(): Promise<string> {
  const { rawConfig } = await wranglerView();
  await mkdir(directory, { recursive: true });
  const path = join(directory, "wrangler.json");
  await replace(path, (temporary) => writeFile(temporary, JSON.stringify(localWranglerConfig(rawConfig), null, 2)));
  for (const name of settingsFiles) {
    await replace(join(directory, name), (temporary) => symlink(join(projectRoot, name), temporary));
  }
  return path;
}
