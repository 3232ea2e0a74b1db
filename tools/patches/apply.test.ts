import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { applyPatches, modulesDirectory, patchedFiles, patchState, projectPatches } from "./apply.ts";
import { shippedCopy } from "./shipped.ts";

const scratchDirectories: string[] = [];
const scratch = () => {
  const directory = mkdtempSync(join(tmpdir(), "tower-edge-patches-"));
  scratchDirectories.push(directory);
  return directory;
};

afterEach(() => {
  for (const directory of scratchDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const shipped = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";
const mended = "export const a = 1;\nexport const b = 20;\nexport const c = 3;\n";
const header = "Fix of example/repo#1, as in its pull request example/repo#2.\n\n";
const diff = `--- a/package/index.js
+++ b/package/index.js
@@ -1,3 +1,3 @@
 export const a = 1;
-export const b = 2;
+export const b = 20;
 export const c = 3;
`;

/** A node_modules holding package/index.js with `source`, and a patch of it beside. */
function modulesWith(source: string): { modules: string; patch: string; file: string } {
  const modules = scratch();
  mkdirSync(join(modules, "package"));
  const file = join(modules, "package", "index.js");
  writeFileSync(file, source);
  const patch = join(modules, "example.patch");
  writeFileSync(patch, header + diff);
  return { modules, patch, file };
}

describe("applyPatches", () => {
  it("applies a patch once: a second install finds it applied and changes nothing", () => {
    const { modules, patch, file } = modulesWith(shipped);
    const log: string[] = [];
    expect(patchState(patch, modules)).toBe("applicable");
    applyPatches([patch], modules, (line) => log.push(line));
    expect(readFileSync(file, "utf8")).toBe(mended);
    applyPatches([patch], modules, (line) => log.push(line));
    expect(readFileSync(file, "utf8")).toBe(mended);
    expect(log).toEqual(["example.patch: applied now", "example.patch: applied"]);
  });

  it("fails naming the patch, and changes nothing, when the package changed under it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 2),
        fc.string({ minLength: 1 }).filter((text) => !text.includes("\n")),
        (line, changed) => {
          const lines = shipped.split("\n");
          lines[line] = `${lines[line]}${changed}`;
          const { modules, patch, file } = modulesWith(lines.join("\n"));
          expect(patchState(patch, modules)).toBe("conflicting");
          expect(() => applyPatches([patch], modules, () => undefined)).toThrow(
            `these patches no longer apply: ${patch}`,
          );
          expect(readFileSync(file, "utf8")).toBe(lines.join("\n"));
        },
      ),
      { numRuns: 20 },
    );
  });

  it("names the files a patch changes", () => {
    const { patch } = modulesWith(shipped);
    expect(patchedFiles(patch)).toEqual(["package/index.js"]);
  });
});

describe("the project's patches", () => {
  it("are all applied to node_modules (npm install applies them)", () => {
    for (const patch of projectPatches()) expect(patchState(patch, modulesDirectory), patch).toBe("applied");
  });

  it("bring the packages as shipped to node_modules as it is, by the applier", () => {
    for (const patch of projectPatches()) {
      const modules = shippedCopy(patch);
      scratchDirectories.push(modules);
      applyPatches([patch], modules, () => undefined);
      for (const file of patchedFiles(patch)) {
        expect(readFileSync(join(modules, file), "utf8"), file).toBe(
          readFileSync(join(modulesDirectory, file), "utf8"),
        );
      }
      // And again from a copy of node_modules as it is: nothing left to do.
      const installed = scratch();
      for (const file of patchedFiles(patch)) cpSync(join(modulesDirectory, file), join(installed, file));
      expect(patchState(patch, installed)).toBe("applied");
    }
  });
});
