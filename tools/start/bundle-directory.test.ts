import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { expect, it } from "vitest";
import { newBundleDirectory } from "./bundle-directory.ts";

it("gives each start a directory of its own and removes those of launchers that died", async () => {
  const deadPid = spawnSync(process.execPath, ["-e", ""]).pid!;
  const first = await newBundleDirectory();
  const leftOver = join(dirname(first), `start-${deadPid}-left`);
  await mkdir(leftOver);
  try {
    const second = await newBundleDirectory();

    expect(second).not.toBe(first);
    expect(basename(second)).toMatch(new RegExp(`^start-${process.pid}-`));
    expect(existsSync(first)).toBe(true);
    expect(existsSync(leftOver)).toBe(false);
    await rm(second, { recursive: true });
  } finally {
    await rm(first, { recursive: true });
    await rm(leftOver, { recursive: true, force: true });
  }
});
