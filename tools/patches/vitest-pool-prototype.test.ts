import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { modulesDirectory, patchesDirectory, patchState } from "./apply.ts";
import { shippedCopy, shippedSource } from "./shipped.ts";

/*
 * Tripwire of patches/workers-sdk-15092-15106-vitest-pool-prototype-proxy-once.patch: the wrapper
 * classes of vitest-pool-workers, which put a Proxy in front of their prototype at every
 * construction (cloudflare/workers-sdk#15092, fixed by pull request #15106).
 */

const patch = join(patchesDirectory, "workers-sdk-15092-15106-vitest-pool-prototype-proxy-once.patch");
const wrapperModule = "@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs";

type WrapperFactory = (superClass: new () => object, unknownKey: (key: string) => unknown) => new () => object;

/**
 * Builds a wrapper class with the factory of the pool's module in `modules`, constructs it
 * `constructions` times, and counts the traps one read of an inherited method passes.
 */
function trapsPerRead(modules: string, constructions: number): number {
  const source = readFileSync(join(modules, wrapperModule), "utf8");
  const factorySource = source.match(/^function createProxyPrototypeClass\([\s\S]*?^}$/m)?.[0];
  expect(factorySource, "the pool's module defines createProxyPrototypeClass").toBeDefined();
  let reads = 0;
  const countingReflect = Object.create(Reflect, {
    get: {
      value: (target: object, key: PropertyKey, receiver: unknown) => {
        reads += 1;
        return Reflect.get(target, key, receiver);
      },
    },
  });
  // The factory's own text from the module, run here in Node, with Reflect observed.
  const factory = new Function("Reflect", "IGNORED_KEYS", `${factorySource}\nreturn createProxyPrototypeClass;`)(
    countingReflect,
    ["self"],
  ) as WrapperFactory;
  const Wrapper = factory(
    class {
      method() {}
    },
    () => undefined,
  );
  let instance: object = {};
  for (let index = 0; index < constructions; index++) instance = new Wrapper();
  reads = 0;
  expect(typeof (instance as { method?: unknown }).method).toBe("function");
  return reads;
}

it("is applied to the installed pool (npm install applies it)", () => {
  expect(patchState(patch, modulesDirectory)).toBe("applied");
});

it("makes a read pass one Proxy however often the class was constructed, where the shipped pool passes one per construction", () => {
  expect(trapsPerRead(modulesDirectory, 1)).toBe(1);
  expect(trapsPerRead(modulesDirectory, 50)).toBe(1);
  const shipped = shippedCopy(patch);
  try {
    expect(trapsPerRead(shipped, 50)).toBe(50);
  } finally {
    rmSync(shipped, { recursive: true, force: true });
  }
});

it("is needed: the installed pool, as released, installs its Proxy at every construction; otherwise delete the patch", () => {
  const entrypoints = shippedSource(wrapperModule, "src/worker/entrypoints.ts");
  const classConstructor = entrypoints.slice(entrypoints.indexOf("function Class("), entrypoints.indexOf("new Proxy("));
  // The constructor's first statement, after its comments, is the Proxy's installation: no guard.
  expect(classConstructor).toMatch(/^function Class\([^)]*\) \{\s*(\/\/[^\n]*\n\s*)*Class\.prototype = $/);
});
