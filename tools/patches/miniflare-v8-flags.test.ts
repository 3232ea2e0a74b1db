import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { afterEach, expect, it } from "vitest";
import { modulesDirectory, patchesDirectory, patchState } from "./apply.ts";

/*
 * Tripwire of patches/workers-sdk-14702-miniflare-v8-flags-env.patch: the backport of
 * MINIFLARE_WORKERD_V8_FLAGS (cloudflare/workers-sdk#14702), which gives the launcher's workerd its
 * V8 flags (tools/start/workerd-wrapper.ts).
 */

const patch = join(patchesDirectory, "workers-sdk-14702-miniflare-v8-flags-env.patch");
/** The first miniflare released with #14702. */
const firstReleaseWithFix = "4.20260722.1";

const versionParts = (version: string) => version.split(/[.-]/).map(Number);
function olderThan(version: string, than: string): boolean {
  const [a, b] = [versionParts(version), versionParts(than)];
  const differing = a.findIndex((part, index) => part !== b[index]);
  return differing !== -1 && a[differing]! < (b[differing] ?? 0);
}

const flagsBefore = process.env.MINIFLARE_WORKERD_V8_FLAGS;
afterEach(() => {
  if (flagsBefore === undefined) delete process.env.MINIFLARE_WORKERD_V8_FLAGS;
  else process.env.MINIFLARE_WORKERD_V8_FLAGS = flagsBefore;
});

it("compares versions part by part", () => {
  expect(olderThan("4.20260426.0", firstReleaseWithFix)).toBe(true);
  expect(olderThan("4.20260722.0", firstReleaseWithFix)).toBe(true);
  expect(olderThan(firstReleaseWithFix, firstReleaseWithFix)).toBe(false);
  expect(olderThan("4.20260730.0", firstReleaseWithFix)).toBe(false);
  expect(olderThan("5.0.0", firstReleaseWithFix)).toBe(false);
});

it("is applied to the installed miniflare (npm install applies it)", () => {
  expect(patchState(patch, modulesDirectory)).toBe("applied");
});

it(`is needed: the installed miniflare predates ${firstReleaseWithFix}, otherwise delete the patch`, () => {
  const { version } = JSON.parse(readFileSync(join(modulesDirectory, "miniflare", "package.json"), "utf8"));
  expect(olderThan(version, firstReleaseWithFix), `miniflare ${version} has MINIFLARE_WORKERD_V8_FLAGS`).toBe(true);
});

it("gives workerd the flags of MINIFLARE_WORKERD_V8_FLAGS: its isolates have gc() with --expose-gc, and not without", async () => {
  const gcInWorkerd = async () => {
    const miniflare = new Miniflare({
      modules: true,
      script: "export default { fetch: () => new Response(typeof gc) }",
    });
    try {
      return await (await miniflare.dispatchFetch("http://worker/")).text();
    } finally {
      await miniflare.dispose();
    }
  };
  process.env.MINIFLARE_WORKERD_V8_FLAGS = "--expose-gc --minor-ms";
  expect(await gcInWorkerd()).toBe("function");
  delete process.env.MINIFLARE_WORKERD_V8_FLAGS;
  expect(await gcInWorkerd()).toBe("undefined");
});
