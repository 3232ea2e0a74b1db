import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { profileCases, runProfileCase } from "./cases.ts";
import { withProfiledWorker } from "./profiled-worker.ts";
import { profileCaseLines, profileFigures, profileMethodLines } from "./report.ts";

/*
 * `npm run profile`: one case of the bench's profile section (PROFILE_CASE: healthz, batched, single,
 * line-protocol, remote-write, otlp or four-observers, the default) on a Worker of its own, for PROFILE_SECONDS
 * (default 10); prints the section's tables and writes the whole profile for Chrome DevTools.
 */

const caseId = process.env.PROFILE_CASE ?? "four-observers";
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const concurrency = 32;

async function main() {
  const profileCase = profileCases.find((candidate) => candidate.id === caseId);
  if (!profileCase) throw new Error(`PROFILE_CASE: one of ${profileCases.map(({ id }) => id).join(", ")}`);
  await withProfiledWorker(async (worker) => {
    const run = await runProfileCase({ ...worker, concurrency, seconds }, profileCase);
    const profilePath = join(tmpdir(), `tower-edge-${profileCase.id}-${Date.now()}.cpuprofile`);
    await writeFile(profilePath, JSON.stringify(run.profile));
    const lines = [
      ...profileMethodLines(seconds, concurrency),
      "",
      ...profileCaseLines(profileCase, run, profileFigures(profileCase, run)),
      "",
      `The whole profile: ${profilePath} (open it in Chrome DevTools, Performance panel).`,
    ];
    console.log(lines.join("\n"));
  });
}

await main();
