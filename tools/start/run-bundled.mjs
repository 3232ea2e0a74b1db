// `node tools/start/run-bundled.mjs tools/start/<script>.ts`: runs a launcher (npm start, npm run
// dev) or one of its helper processes bundled by esbuild rather than under tsx, whose compiler
// would otherwise stay in the launcher's memory for as long as the service runs, and which loads
// large packages more slowly. Packages stay outside the bundle and load from node_modules as usual.
// Bundling takes a fraction of a second, so it is done at each start; a bundle already written for
// the same sources is reused, and the script's earlier ones are removed.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, stop } from "esbuild";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
// Inside the project, so that the bundle's imports of packages resolve to its node_modules.
const bundles = join(projectRoot, ".wrangler", "launcher");
// A script started from an earlier bundle imported it long before this.
const staleAfterMs = 60_000;

// Modules find files beside their source (the workerd wrapper, the project's root) through
// import.meta.url, which in a bundle would name the bundle: each keeps its own source's URL.
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(bundler) {
    bundler.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, "utf8")).replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)),
      loader: "ts",
    }));
  },
};

/** Writes the bundle of `entry` unless the same is there already, and returns its path. */
async function bundled(entry) {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    outfile: "launcher.mjs",
    plugins: [ownImportMetaUrl],
  });
  // Its service process would otherwise run beside the launcher for as long as the launcher does.
  await stop();
  const code = outputFiles[0].contents;
  const name = basename(entry, ".ts");
  const file = `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
  const path = join(bundles, file);
  if (existsSync(path)) return path;
  await mkdir(bundles, { recursive: true });
  // Launchers started at once may write the same bundle: each renames a whole file of its own into place.
  const partial = `${path}.${process.pid}`;
  await writeFile(partial, code);
  await rename(partial, path);
  const sameScript = new RegExp(`^${name}-[0-9a-f]{16}\\.mjs$`);
  for (const other of await readdir(bundles)) {
    const otherPath = join(bundles, other);
    if (!sameScript.test(other) || other === file) continue;
    if (Date.now() - (await stat(otherPath)).mtimeMs > staleAfterMs) await rm(otherPath, { force: true });
  }
  return path;
}

await import(pathToFileURL(await bundled(resolve(process.argv[2]))).href);
