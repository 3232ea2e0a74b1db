import fc from "fast-check";
import { expect } from "vitest";
import { request } from "./http";

/*
 * Random and mutated request bodies for property-based tests of the write routes: start from
 * valid bodies, break them (drop a field, change a type, add unknown or prototype keys, huge
 * strings, deep nesting), or send text that is not JSON at all.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** Stands for a run's own ids and names in base bodies, so data of one run cannot hide in another's. */
export const runMarker = "@run@";

const prototypeKeys = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"];

const suspiciousKey = fc.oneof(
  fc.constantFrom(...prototypeKeys, "", "clazz", "id", "type"),
  fc.string({ maxLength: 12 }),
);

const suspiciousString = fc.constantFrom(
  ...prototypeKeys,
  "",
  " ",
  "\u0000",
  "\ud800",
  "😀",
  "a/b",
  "%2F",
  "../../etc/passwd",
  "http://127.0.0.1/",
  "NaN",
  "-INF",
  "1e309",
  "-0",
);

const edgeNumber = fc.constantFrom(0, -0, -1, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e-308, 65_536);

const hugeString = fc.integer({ min: 10_000, max: 200_000 }).map((length) => "x".repeat(length));

/** Arrays or objects nested `depth` levels deep. */
const deeplyNested = fc.tuple(fc.integer({ min: 50, max: 2_000 }), fc.boolean()).map(([depth, useObjects]) => {
  let value: Json = "bottom";
  for (let level = 0; level < depth; level++) value = useObjects ? { nested: value } : [value];
  return value;
});

const strangeValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  suspiciousString,
  edgeNumber,
  fc.constantFrom<Json>(true, false, null, [], {}),
  hugeString,
  deeplyNested,
);

type Mutation =
  | { kind: "drop"; at: number }
  | { kind: "replace"; at: number; value: Json }
  | { kind: "add"; at: number; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: strangeValue }),
  fc.record({ kind: fc.constant("add" as const), at: fc.nat(), key: suspiciousKey, value: strangeValue }),
);

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The nodes of `value` a mutation may pick, the root first. The valid bodies are a few levels
 * deep; deeper nodes were put there by an earlier mutation and need no further mutating.
 */
function pathsOf(value: Json, path: Path = []): Path[] {
  if (path.length >= 8) return [path];
  const children: [string | number, Json][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : isObject(value)
      ? Object.entries(value)
      : [];
  return [path, ...children.flatMap(([key, child]) => pathsOf(child, [...path, key]))];
}

function nodeAt(root: Json, path: Path): Json {
  return path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key]!, root);
}

/** Sets an own property even for `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies `change` to `root` (a private copy); undefined stands for "no body at all". */
function mutate(root: Json | undefined, change: Mutation): Json | undefined {
  if (root === undefined) return change.kind === "drop" ? undefined : change.value;
  const paths = pathsOf(root);
  const path = paths[change.at % paths.length]!;
  const node = nodeAt(root, path);
  if (change.kind === "add") {
    if (isObject(node)) setOwn(node, change.key, change.value);
    else if (Array.isArray(node)) node.push(change.value);
    else return mutate(root, { kind: "replace", at: change.at, value: { [change.key]: change.value } });
    return root;
  }
  if (path.length === 0) return change.kind === "drop" ? undefined : change.value;
  const parent = nodeAt(root, path.slice(0, -1));
  const key = path.at(-1)!;
  if (Array.isArray(parent)) {
    if (change.kind === "drop") parent.splice(key as number, 1);
    else parent[key as number] = change.value;
  } else if (isObject(parent)) {
    if (change.kind === "drop") delete parent[key];
    else setOwn(parent, String(key), change.value);
  }
  return root;
}

const copy = <T extends Json>(value: T): T => JSON.parse(JSON.stringify(value));

/**
 * Mutations work on copies: of the base, and of each inserted value, since an arbitrary may give
 * the same instance twice (`fc.constantFrom([])`), which one mutation could then insert into itself.
 */
function mutatedText(valid: readonly Json[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...valid), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([base, changes]) =>
      changes.reduce<Json | undefined>(
        (body, change) => mutate(body, change.kind === "drop" ? change : { ...change, value: copy(change.value) }),
        copy(base),
      ),
    )
    .map((body) => (body === undefined ? "" : JSON.stringify(body)));
}

/** Text that is not one JSON document, or JSON of the wrong shape altogether. */
function brokenText(valid: readonly Json[]): fc.Arbitrary<string> {
  const truncated = fc.tuple(fc.constantFrom(...valid), fc.nat()).map(([base, cut]) => {
    const text = JSON.stringify(base);
    return text.slice(0, cut % text.length);
  });
  return fc.oneof(
    fc.string({ maxLength: 200 }),
    truncated,
    fc.constantFrom("", "null", "[]", "{}", '"text"', "0", "true", '{"__proto__":{"x":1}}', "[".repeat(5_000)),
    fc.jsonValue().map((value) => JSON.stringify(value)),
  );
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "application/json; charset=utf-8", "application/ld+json") },
  { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data") },
);

export interface FuzzBody {
  text: string;
  contentType: string | undefined;
}

/** Mostly mutations of `valid`, sometimes text that is not JSON, under mostly JSON content types. */
export function fuzzBodies(valid: readonly Json[]): fc.Arbitrary<FuzzBody> {
  const text = fc.oneof({ weight: 4, arbitrary: mutatedText(valid) }, { weight: 1, arbitrary: brokenText(valid) });
  return fc.record({ text, contentType });
}

let runs = 0;

/** Sends `body` with the run marker replaced by a name of this run's own. */
export function sendFuzzBody(method: string, path: string, body: FuzzBody): Promise<Response> {
  runs += 1;
  const headers: Record<string, string> = body.contentType === undefined ? {} : { "content-type": body.contentType };
  return request(method, path, { body: body.text.replaceAll(runMarker, `-${runs}`), headers });
}

/**
 * The answer to any request is either a success or a problem the client can act on: never a
 * server error, and every 4xx an application/problem+json document of the documented shape.
 * Returns whether the request was accepted.
 */
export async function expectSuccessOrProblem(response: Response): Promise<boolean> {
  const text = await response.text();
  expect(response.status, text).toBeLessThan(500);
  if (response.ok) return true;
  expect(response.status, text).toBeGreaterThanOrEqual(400);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = JSON.parse(text) as Record<string, unknown>;
  expect(problem).toEqual({
    type: expect.stringMatching(/^urn:tower-edge:problem:[a-z-]+$/),
    title: expect.any(String),
    status: response.status,
    detail: expect.any(String),
    ...("errors" in problem ? { errors: expect.any(Array) } : {}),
  });
  for (const entry of (problem.errors ?? []) as unknown[]) {
    expect(entry).toEqual({ path: expect.stringMatching(/^(\/.*)?$/), message: expect.any(String) });
  }
  return false;
}

/** Own properties of Object.prototype, to show that no request polluted it. */
export function objectPrototypeKeys(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

/** Long enough for 100 runs on a loaded two-core machine, and for shrinking a counterexample. */
export const fuzzTimeoutMs = 120_000;

export interface FuzzedWrites<Body extends FuzzBody> {
  bodies: fc.Arbitrary<Body>;
  send(body: Body): Promise<Response>;
  /** What a rejected request must leave untouched, as the API shows it. */
  readState(): Promise<unknown>;
}

/**
 * Sends 100 fuzzed bodies: each is answered with a success or a problem, a rejected one leaves
 * the state as it was, and none pollutes Object.prototype. After the time limit the remaining
 * runs (and shrinking steps) are skipped, so a slow machine runs fewer rather than time out.
 */
export async function checkFuzzedWrites<Body extends FuzzBody>({
  bodies,
  send,
  readState,
}: FuzzedWrites<Body>): Promise<void> {
  const prototypeBefore = objectPrototypeKeys();
  let state = await readState();
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const accepted = await expectSuccessOrProblem(await send(body));
      const after = await readState();
      if (!accepted) expect(after).toEqual(state);
      state = after;
    }),
    { numRuns: 100, skipAllAfterTimeLimit: 90_000 },
  );
  expect(objectPrototypeKeys()).toEqual(prototypeBefore);
}
