import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * vitest-pool-workers wraps the classes it hands workerd (the Worker's entrypoint, each Durable
 * Object) in a class whose constructor puts a Proxy in front of the class's prototype, and it does
 * so at every construction, in front of the previous Proxy. Each request to the Worker constructs
 * one, so after n requests a property read passes n proxies: a test runtime's every request grows
 * slower the longer it runs, and a file of a few thousand requests spends most of its time there.
 * Reported upstream as cloudflare/workers-sdk#15092; its fix is merged there but in no release yet
 * (0.23 included). Until one has it, npm install makes the constructor install its Proxy once per class.
 */

/** The constructor as the pool ships it: a new Proxy at every construction. */
const proxiedAtEveryConstruction = "\tfunction Class(...args) {\n\t\tClass.prototype = new Proxy(Class.prototype, {";

/** The same constructor installing its Proxy at its first construction only, as the pool needs it. */
const proxiedOnce =
  "\tlet prototypeProxied = false;\n\tfunction Class(...args) {\n\t\tif (!prototypeProxied) prototypeProxied = true, Class.prototype = new Proxy(Class.prototype, {";

export type PatchOutcome = "patched" | "already patched" | "not found";

/** `source` (the pool's module) with the Proxy installed once per class, and what was done. */
export function withPrototypeProxiedOnce(source: string): { source: string; outcome: PatchOutcome } {
  if (source.includes(proxiedOnce)) return { source, outcome: "already patched" };
  const occurrences = source.split(proxiedAtEveryConstruction).length - 1;
  if (occurrences !== 1) return { source, outcome: "not found" };
  return { source: source.replace(proxiedAtEveryConstruction, proxiedOnce), outcome: "patched" };
}

/** The installed pool's module that defines the wrapper classes. */
export function installedWrapperModule(): string {
  // The package exports its pool's entry, dist/pool/index.mjs; the runtime's modules lie beside it.
  const poolEntry = fileURLToPath(import.meta.resolve("@cloudflare/vitest-pool-workers"));
  return join(dirname(poolEntry), "..", "worker", "lib", "cloudflare", "test-internal.mjs");
}

/**
 * Patches the installed pool (npm install runs this). A pool whose code no longer has the faulty
 * constructor is left alone, and said so: the test beside this module then asks for a look.
 */
function patchInstalledPool(): void {
  const file = installedWrapperModule();
  const { source, outcome } = withPrototypeProxiedOnce(readFileSync(file, "utf8"));
  if (outcome === "patched") writeFileSync(file, source);
  console.log(`vitest-pool-workers' wrapper classes (${file}): ${outcome}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) patchInstalledPool();
