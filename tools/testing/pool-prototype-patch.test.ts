import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { installedWrapperModule, withPrototypeProxiedOnce } from "./pool-prototype-patch.ts";

/** The pool's wrapper class factory as it ships (its module's text, a fixture). */
const shipped = `const IGNORED_KEYS = ["self"];
function createProxyPrototypeClass(superClass, getUnknownPrototypeKey) {
\tfunction Class(...args) {
\t\tClass.prototype = new Proxy(Class.prototype, { get(target, key, receiver) {
\t\t\tconst value = Reflect.get(target, key, receiver);
\t\t\tif (value !== void 0) return value;
\t\t\tif (typeof key === "symbol" || IGNORED_KEYS.includes(key)) return;
\t\t\treturn getUnknownPrototypeKey.call(receiver, key);
\t\t} });
\t\treturn Reflect.construct(superClass, args, Class);
\t}
\tReflect.setPrototypeOf(Class.prototype, superClass.prototype);
\tReflect.setPrototypeOf(Class, superClass);
\treturn Class;
}`;

type WrapperFactory = (superClass: new () => object, unknownKey: (key: string) => unknown) => new () => object;

/**
 * Builds a wrapper class from the factory's `source`, constructs it `constructions` times, and
 * counts the traps one read of an inherited method passes (each trap reads through Reflect.get).
 */
function trapsPerRead(source: string, constructions: number): number {
  let reads = 0;
  const countingReflect = Object.create(Reflect, {
    get: {
      value: (target: object, key: PropertyKey, receiver: unknown) => {
        reads += 1;
        return Reflect.get(target, key, receiver);
      },
    },
  });
  // The factory is the pool's own module text, evaluated here (in Node) with Reflect observed.
  const factory = new Function("Reflect", `${source}\nreturn createProxyPrototypeClass;`)(
    countingReflect,
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

describe("withPrototypeProxiedOnce", () => {
  it("finds the shipped factory putting a Proxy in front of the last at every construction", () => {
    expect(trapsPerRead(shipped, 1)).toBe(1);
    expect(trapsPerRead(shipped, 50)).toBe(50);
  });

  it("makes a read pass one Proxy however often the class was constructed", () => {
    const { source, outcome } = withPrototypeProxiedOnce(shipped);
    expect(outcome).toBe("patched");
    expect(trapsPerRead(source, 1)).toBe(1);
    expect(trapsPerRead(source, 50)).toBe(1);
  });

  it("leaves a patched module as it is, and says when the factory is not there", () => {
    const { source } = withPrototypeProxiedOnce(shipped);
    expect(withPrototypeProxiedOnce(source)).toEqual({ source, outcome: "already patched" });
    expect(withPrototypeProxiedOnce("export {};")).toEqual({ source: "export {};", outcome: "not found" });
  });

  it("has patched the installed pool (npm install runs it); after an upgrade, see whether the pool still needs it", () => {
    expect(withPrototypeProxiedOnce(readFileSync(installedWrapperModule(), "utf8")).outcome).toBe("already patched");
  });
});
