import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modulesDirectory, patchedFiles, runPatch } from "./apply.ts";

/*
 * What a package shipped, before the patches: where a tripwire looks to tell whether upstream
 * still has the fault a patch mends.
 */

/**
 * A scratch directory holding the files `patch` changes as their package shipped them: copied
 * from node_modules, where the patch is applied, and the patch reversed there.
 */
export function shippedCopy(patch: string): string {
  const directory = mkdtempSync(join(tmpdir(), "tower-edge-shipped-"));
  for (const file of patchedFiles(patch)) cpSync(join(modulesDirectory, file), join(directory, file));
  runPatch(patch, directory, "--reverse");
  return directory;
}

/**
 * The upstream source of a bundled file of node_modules, as its source map carries it: the source
 * whose path ends with `sourcePath`. Patches change the bundle, never its map, so this is the code
 * of the release itself; once upstream fixes a fault there, its fixed code shows here.
 */
export function shippedSource(file: string, sourcePath: string): string {
  const map = JSON.parse(readFileSync(join(modulesDirectory, `${file}.map`), "utf8")) as {
    sources: string[];
    sourcesContent?: (string | null)[];
  };
  const index = map.sources.findIndex((source) => source.endsWith(sourcePath));
  const source = map.sourcesContent?.[index];
  if (index === -1 || typeof source !== "string") throw new Error(`${file}.map carries no source ${sourcePath}`);
  return source;
}
