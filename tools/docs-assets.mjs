// Copies Scalar's standalone browser bundle, the script of the API reference page (GET /docs), into
// the Worker's static assets (public/_docs/scalar.js), so that the page loads nothing from elsewhere.
// Runs after `npm install` (postinstall) and before `wrangler dev` and `wrangler deploy` ([build]).
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
// The browser bundle is not among the package's exports: it lies beside the main entry point.
const mainEntry = fileURLToPath(import.meta.resolve("@scalar/api-reference"));
const source = join(dirname(mainEntry), "browser", "standalone.js");
const target = join(projectRoot, "public", "_docs", "scalar.js");

mkdirSync(dirname(target), { recursive: true });
copyFileSync(source, target);
