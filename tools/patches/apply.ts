import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot } from "../start/project.ts";

/*
 * Mends of upstream faults in installed packages, each a unified diff in patches/ naming its
 * upstream issue and fix, applied to node_modules by every `npm install` and `npm ci`
 * (postinstall) with GNU patch. Applying again changes nothing; a patch that neither applies nor
 * is applied already (the package changed under it) fails the install, naming the patch.
 */

export const patchesDirectory = join(projectRoot, "patches");
export const modulesDirectory = join(projectRoot, "node_modules");

/** Applied already, applicable as it is, or neither. */
export type PatchState = "applied" | "applicable" | "conflicting";

/** Whether `patch` applies to `directory` in `direction`, trying without changing a file. */
function applies(patch: string, directory: string, direction: "--forward" | "--reverse"): boolean {
  // --force: no questions, and no guessing that a patch is reversed; --fuzz=0: every context line as written.
  const { status, error } = spawnSync(
    "patch",
    ["--dry-run", direction, "--force", "--fuzz=0", "--strip=1", `--directory=${directory}`, `--input=${patch}`],
    { stdio: "ignore" },
  );
  if (error) throw new Error(`cannot run GNU patch (Debian's package "patch"): ${error.message}`);
  return status === 0;
}

/** Where `directory` (a node_modules) stands with `patch`. */
export function patchState(patch: string, directory: string): PatchState {
  if (applies(patch, directory, "--reverse")) return "applied";
  return applies(patch, directory, "--forward") ? "applicable" : "conflicting";
}

/** The files `patch` changes, relative to the directory it applies to. */
export function patchedFiles(patch: string): string[] {
  return [...readFileSync(patch, "utf8").matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((match) => match[1]!);
}

/** Reverses or applies `patch` in `directory`, throwing with patch's own words if it does not. */
export function runPatch(patch: string, directory: string, direction: "--forward" | "--reverse"): void {
  const { status, stdout, stderr } = spawnSync(
    "patch",
    [
      direction,
      "--force",
      "--fuzz=0",
      "--strip=1",
      "--no-backup-if-mismatch",
      `--directory=${directory}`,
      `--input=${patch}`,
    ],
    { encoding: "utf8" },
  );
  if (status !== 0) throw new Error(`patch ${direction} ${patch} failed:\n${stdout}${stderr}`);
}

/**
 * Brings every patch of `patches` to `directory`, and says for each what was done. Throws, after
 * trying all of them, when one conflicts: the package no longer has the code the patch mends.
 */
export function applyPatches(patches: readonly string[], directory: string, log: (line: string) => void): void {
  const conflicting: string[] = [];
  for (const patch of patches) {
    const state = patchState(patch, directory);
    if (state === "applicable") runPatch(patch, directory, "--forward");
    if (state === "conflicting") conflicting.push(patch);
    log(`${basename(patch)}: ${state === "applicable" ? "applied now" : state}`);
  }
  if (conflicting.length > 0) {
    throw new Error(
      `these patches no longer apply: ${conflicting.join(", ")}. The packages they mend changed: see whether ` +
        "each still needs its fix (its header names the upstream issue and fix), and remove or remake it",
    );
  }
}

/** The patch files of patches/, in their names' order. */
export function projectPatches(): string[] {
  return readdirSync(patchesDirectory)
    .filter((name) => name.endsWith(".patch"))
    .sort()
    .map((name) => join(patchesDirectory, name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    applyPatches(projectPatches(), modulesDirectory, (line) => console.log(`patches: ${line}`));
  } catch (error) {
    console.error(`patches: ${(error as Error).message}`);
    process.exit(1);
  }
}
