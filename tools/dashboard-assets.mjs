// Builds the dashboard (GET / and /ui/*) into the Worker's static assets, public/ui/: its
// TypeScript (src/dashboard/) bundled by esbuild into one script, its page, style sheet and icon
// copied as they are, so that the page loads nothing from elsewhere. Runs after `npm install`
// (postinstall) and before `wrangler dev`, `wrangler deploy` and every `npm start` ([build]).
// Each file is written beside its target and renamed over it: services started at the same time
// (tests) run this at once, and one of them may be serving the files meanwhile.
import { copyFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const source = join(projectRoot, "src", "dashboard");
const target = join(projectRoot, "public", "ui");
const copied = ["index.html", "dashboard.css", "icon.svg"];

const partial = (file) => `${file}.${process.pid}.partial`;

mkdirSync(target, { recursive: true });
const bundle = await build({
  entryPoints: [join(source, "main.ts")],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  write: false,
  outfile: join(target, "dashboard.js"),
  logLevel: "warning",
});
for (const file of bundle.outputFiles) {
  writeFileSync(partial(file.path), file.contents);
  renameSync(partial(file.path), file.path);
}
for (const name of copied) {
  const path = join(target, name);
  copyFileSync(join(source, name), partial(path));
  renameSync(partial(path), path);
}
