import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { projectRoot } from "./project.ts";

const runBundled = join(projectRoot, "tools", "start", "run-bundled.mjs");
const bundles = join(projectRoot, ".wrangler", "launcher");
let directory: string;
let script: string;

/** A script that says where it, and a module of the project it imports, believe they are. */
beforeAll(async () => {
  directory = await mkdtemp(join(projectRoot, ".wrangler", "tmp", "run-bundled-"));
  script = join(directory, "where-am-i.ts");
  await writeFile(
    script,
    `import { fileURLToPath } from "node:url";
import { projectRoot } from ${JSON.stringify(join(projectRoot, "tools", "start", "project.ts"))};
console.log(JSON.stringify({ script: fileURLToPath(import.meta.url), projectRoot }));
`,
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
  for (const name of await readdir(bundles)) if (name.startsWith("where-am-i-")) await rm(join(bundles, name));
});

const run = () => promisify(execFile)(process.execPath, [runBundled, script], { cwd: projectRoot });

it("runs a TypeScript script bundled, each module knowing its own source's place", async () => {
  const { stdout } = await run();
  expect(JSON.parse(stdout)).toEqual({ script, projectRoot });
});

it("keeps one bundle of a script's sources, written whole when it is started several times at once", async () => {
  const outputs = await Promise.all([run(), run(), run()]);
  for (const { stdout } of outputs) expect(JSON.parse(stdout)).toEqual({ script, projectRoot });
  expect((await readdir(bundles)).filter((name) => name.startsWith("where-am-i-"))).toHaveLength(1);
});
