import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Whether a Worker test file reaches the runtime's bindings: it imports a `cloudflare:` module
 * (env, SELF, runInDurableObject) or the API tests' support, which calls the Worker.
 */
export function usesBindings(source: string): boolean {
  return /from\s+["'](cloudflare:[^"']+|[^"']*\/support\/[^"']+)["']/.test(source);
}

/**
 * The `*.test.ts` files under `folders` (relative to `root`, as vitest's include takes them) that
 * use no binding. Such files own no storage, so they can share one workerd and its loaded modules;
 * the others each get a Miniflare of their own, whose storage they alone see.
 */
export function bindingFreeTests(root: string, folders: readonly string[]): string[] {
  return folders
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".test.ts"))
        .map((file) => join(folder, file)),
    )
    .filter((file) => !usesBindings(readFileSync(join(root, file), "utf8")))
    .sort();
}
