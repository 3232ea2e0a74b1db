import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bindingFreeTests, usesBindings } from "./binding-free-tests.ts";

describe("usesBindings", () => {
  it.each([
    'import { env } from "cloudflare:workers";',
    "import { SELF } from 'cloudflare:test';",
    'import { request } from "../../../test/api/support/http";',
    'import { declareMetric } from "./support/metrics.ts";',
  ])("sees a binding in %s", (line) => {
    expect(usesBindings(`${line}\nit("x", () => {});`)).toBe(true);
  });

  it.each([
    'import { parse } from "./parser";',
    'import fc from "fast-check";',
    '// a comment about cloudflare:workers, not an import\nimport { it } from "vitest";',
  ])("sees none in %s", (line) => {
    expect(usesBindings(line)).toBe(false);
  });
});

describe("bindingFreeTests", () => {
  const root = mkdtempSync(join(tmpdir(), "binding-free-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("lists the test files of the folders, nested ones too, that use no binding, sorted", () => {
    mkdirSync(join(root, "src/a/deep"), { recursive: true });
    mkdirSync(join(root, "test/api"), { recursive: true });
    writeFileSync(join(root, "src/a/pure.test.ts"), 'import { x } from "./pure";');
    writeFileSync(join(root, "src/a/deep/also-pure.test.ts"), "");
    writeFileSync(join(root, "src/a/stored.test.ts"), 'import { env } from "cloudflare:workers";');
    writeFileSync(join(root, "src/a/pure.ts"), "export const x = 1;");
    writeFileSync(join(root, "test/api/route.test.ts"), 'import { request } from "./support/http";');

    expect(bindingFreeTests(root, ["src", "test/api"])).toEqual(["src/a/deep/also-pure.test.ts", "src/a/pure.test.ts"]);
  });
});
