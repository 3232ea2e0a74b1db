import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bindingFreeTests, usesBindings } from "./binding-free-tests.ts";

/** Writes `files` (path → source) under a new folder, which it returns. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "binding-free-"));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function classify(files: Record<string, string>, file: string): boolean {
  const root = tree(files);
  roots.push(root);
  return usesBindings(root, join(root, file));
}

describe("usesBindings", () => {
  it.each([
    'import { env } from "cloudflare:workers";',
    "import { SELF } from 'cloudflare:test';",
    'import { request } from "../../test/api/support/http";',
    'import { request } from "../../test/api/support/http.ts";',
    'import { outer } from "../../test/api/support/outer";',
  ])("sees a binding in %s, directly or through test support", (line) => {
    const files = {
      "src/a/a.test.ts": `${line}\nit("x", () => {});`,
      "test/api/support/http.ts": 'import { exports } from "cloudflare:workers";',
      "test/api/support/outer.ts": 'import { request } from "./http";',
    };
    expect(classify(files, "src/a/a.test.ts")).toBe(true);
  });

  it.each([
    'import { parse } from "./parser";',
    'import fc from "fast-check";',
    'import { model } from "../../test/support/model";',
    '// a comment about cloudflare:workers, not an import\nimport { it } from "vitest";',
  ])("sees none in %s", (line) => {
    const files = {
      "src/a/a.test.ts": line,
      "src/a/parser.ts": 'import { DurableObject } from "cloudflare:workers";',
      "test/support/model.ts": 'import { shape } from "./shape";',
      "test/support/shape.ts": 'import { model } from "./model";',
    };
    expect(classify(files, "src/a/a.test.ts")).toBe(false);
  });
});

describe("bindingFreeTests", () => {
  it("lists the test files of the folders, nested ones too, that use no binding, sorted", () => {
    const root = tree({
      "src/a/pure.test.ts": 'import { x } from "./pure";',
      "src/a/deep/also-pure.test.ts": "",
      "src/a/stored.test.ts": 'import { env } from "cloudflare:workers";',
      "src/a/pure.ts": "export const x = 1;",
      "test/api/route.test.ts": 'import { request } from "./support/http";',
      "test/api/support/http.ts": 'import { exports } from "cloudflare:workers";',
    });
    roots.push(root);
    expect(bindingFreeTests(root, ["src", "test/api"])).toEqual(["src/a/deep/also-pure.test.ts", "src/a/pure.test.ts"]);
  });
});
