/**
 * `npm run bundle-size`: builds the bundle `wrangler deploy` would upload (a dry run, nothing is
 * deployed) and prints its gzip size against the platform's limit for a Worker. Exits 1 when the
 * bundle would be refused.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** The compressed size a Worker may have on the Free plan (the Paid plan allows 10 MiB). */
const freePlanLimitBytes = 3 * 1024 * 1024;

const wrangler = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");

/** Total gzip size of the modules in `directory` (source maps are not uploaded as code). */
function gzipSizeOf(directory: string): number {
  return readdirSync(directory)
    .filter((name) => /\.(m?js|wasm)$/.test(name))
    .reduce((total, name) => total + gzipSync(readFileSync(join(directory, name))).length, 0);
}

function main(): void {
  const outdir = mkdtempSync(join(tmpdir(), "tower-edge-bundle-"));
  try {
    execFileSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outdir], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    const size = gzipSizeOf(outdir);
    const share = ((100 * size) / freePlanLimitBytes).toFixed(1);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    console.log(`Worker bundle: ${kib(size)} gzip, ${share} % of the ${kib(freePlanLimitBytes)} limit`);
    if (size > freePlanLimitBytes) process.exitCode = 1;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main();
