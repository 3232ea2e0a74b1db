import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const importedModules = /(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

/** The modules `source` imports, as written. */
function importsOf(source: string): string[] {
  return [...source.matchAll(importedModules)].map((match) => match[1]!);
}

/** A relative import's file, as TypeScript resolves it here (with or without its `.ts`). */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = join(dirname(fromFile), specifier);
  return [base, `${base}.ts`, join(base, "index.ts")].find(
    (candidate) => candidate.endsWith(".ts") && existsSync(candidate),
  );
}

/**
 * Whether the module at `file` (under `root`) reaches the runtime's bindings: it imports a
 * `cloudflare:` module (env, exports, SELF, runInDurableObject), or a test-support module that
 * does, however deep. The Worker's own modules are not followed: importing them reaches no binding,
 * it is the tests that hand them one.
 */
export function usesBindings(root: string, file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  return importsOf(readFileSync(file, "utf8")).some((specifier) => {
    if (specifier.startsWith("cloudflare:")) return true;
    if (!specifier.startsWith(".")) return false;
    const imported = resolveRelative(file, specifier);
    const testSupport = imported !== undefined && relative(root, imported).split(sep)[0] === "test";
    return testSupport && usesBindings(root, imported, seen);
  });
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
    .filter((file) => !usesBindings(root, join(root, file)))
    .sort();
}
