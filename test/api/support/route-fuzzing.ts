import { beforeAll, describe, expect, it } from "vitest";
import type { AdversarialBody } from "./adversarial-bodies";
import { type DocumentedOperation, documentedOperations, operationPath } from "./documented-routes";
import { expectSuccessOrProblem, fuzzTimeoutMs, objectPrototypeKeys } from "./fuzz";
import { request, sendJson } from "./http";

/*
 * Hostile requests to every documented route (test/api/fuzz/): each answer must be a success or a
 * problem as the OpenAPI document describes it (never a 500), and a refused request must leave the
 * service as it was. The routes come from /openapi.json, so a route is covered once it is documented.
 */

const metric = "fuzzed-routes";

/** What each route's path parameters name, when a case wants them to name something that exists. */
interface Fixtures {
  metric: string;
  observerId: string;
  resource: string;
  rule: string;
}

let fixtures: Fixtures;

/** Creates (again, after a request removed it) what the paths name; the observer's id is new or kept. */
async function ensureFixtures(): Promise<void> {
  await request("PUT", `/metrics/${metric}`);
  const registered = await sendJson("POST", `/metrics/${metric}/observers`, {
    callbackUrl: "http://fuzzed-routes.example/hook",
  });
  const { id } = (await registered.json()) as { id: string };
  const resource = [{ clazz: "CloudProvider", id: "fuzzed", type: "IaaS" }];
  expect((await sendJson("POST", "/resources", resource)).status).toBe(204);
  if ((await request("GET", "/monitoring-rules/fuzzed")).status === 404) {
    const rule = {
      id: "fuzzed",
      timeStep: 60,
      timeWindow: 60,
      monitoredTargets: [{ class: "CloudProvider" }],
      collectedMetric: { metricName: "fuzzed-in" },
      actions: [{ name: "OutputMetric", parameters: { metric: "fuzzed-out" } }],
    };
    expect((await sendJson("POST", "/monitoring-rules", { monitoringRules: [rule] })).status).toBe(204);
  }
  fixtures = { metric, observerId: id, resource: "fuzzed", rule: "fuzzed" };
}

/**
 * Every documented operation, with what their paths name created: the first call of a test file
 * (in its beforeAll).
 */
export async function fuzzedOperations(): Promise<DocumentedOperation[]> {
  await ensureFixtures();
  return documentedOperations();
}

function existingSegment(operation: DocumentedOperation, parameter: string): string {
  if (operation.template.startsWith("/metrics")) return parameter === "oid" ? fixtures.observerId : fixtures.metric;
  if (operation.template.startsWith("/resources")) return fixtures.resource;
  if (operation.template.startsWith("/monitoring-rules")) return fixtures.rule;
  return "fuzzed";
}

/** Under /v1 or at the root, by turns, for the routes served under both. */
function prefixFor(operation: DocumentedOperation, turn: number): string {
  return operation.prefixes[turn % operation.prefixes.length]!;
}

/** The operation's path naming what exists, but the parameter `replaced` (if any), which is `segment`. */
export function pathOf(
  operation: DocumentedOperation,
  turn: number,
  replaced?: { parameter: string; segment: string },
) {
  return operationPath(operation, prefixFor(operation, turn), (parameter) =>
    parameter === replaced?.parameter ? replaced.segment : existingSegment(operation, parameter),
  );
}

/** Where the API shows the state each family of routes keeps; a route of no family is judged by all of them. */
const stateViews: Record<string, string[]> = {
  "/metrics": ["/metrics", `/metrics/${metric}/observers`],
  "/resources": ["/resources"],
  "/monitoring-rules": ["/monitoring-rules", "/metrics"],
  "/monitoringdata": ["/metrics"],
  "/results": ["/metrics"],
};

const everyView = [...new Set(Object.values(stateViews).flat())];

/** The views of the state that a request to `path` must leave as it was, were it refused. */
function viewsOf(path: string): string[] {
  const family = Object.keys(stateViews).find((prefix) => path.replace(/^\/v1/, "").startsWith(prefix));
  return family ? stateViews[family]! : everyView;
}

async function read(views: readonly string[]): Promise<unknown> {
  return Promise.all(
    views.map(async (view) => {
      const response = await request("GET", view, { headers: { accept: "application/json" } });
      return { view, status: response.status, body: await response.text() };
    }),
  );
}

/** One request of a case. */
export interface Probe {
  what: string;
  method: string;
  path: string;
  init?: RequestInit;
}

/**
 * Whether `response` accepted its request, once judged: a success or a refusal, never a server
 * error. The agents' routes refuse in their protocol's own shape (InfluxDB's JSON, Prometheus'
 * text, OTLP's Status), which `request` has held to the OpenAPI document; a partial write refuses
 * some of a request and accepts the rest, so it counts as accepted.
 */
async function judge(response: Response): Promise<boolean> {
  if (response.ok || response.headers.get("content-type") === "application/problem+json") {
    return expectSuccessOrProblem(response);
  }
  const text = await response.text();
  expect(response.status, text).toBeLessThan(500);
  return text.includes("partial write");
}

/** Sends one request and judges its answer; whether it was accepted. */
async function answer({ what, method, path, init }: Probe): Promise<boolean> {
  try {
    return await judge(await request(method, path, init));
  } catch (error) {
    const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
    throw new Error(`${method} ${shown} with ${what}: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * Sends one request and judges its answer. A refused write must leave the state as it was just
 * before it; after an accepted one, which may change it, the fixtures are made again.
 */
export async function check(probe: Probe): Promise<void> {
  const views = probe.method === "GET" ? [] : viewsOf(probe.path);
  const before = views.length > 0 ? await read(views) : undefined;
  if (await answer(probe)) {
    await ensureFixtures();
  } else if (views.length > 0) {
    const context = `${probe.method} ${probe.path.slice(0, 120)} with ${probe.what}`;
    expect(await read(views), `${context} was refused, but changed the state`).toEqual(before);
  }
}

/**
 * Sends `probes` and judges each answer, the state read once before and once after: if every one
 * was refused, it must be as it was. Returns the indexes of the probes that were accepted.
 */
async function sendTogether(probes: readonly Probe[]): Promise<number[]> {
  const before = await read(everyView);
  const accepted: number[] = [];
  for (const [index, probe] of probes.entries()) if (await answer(probe)) accepted.push(index);
  if (accepted.length === 0) {
    const sent = probes.map((probe) => `${probe.method} ${probe.path.slice(0, 80)}`);
    expect(await read(everyView), `refused requests changed the state: ${sent.join(", ")}`).toEqual(before);
  }
  return accepted;
}

/**
 * Sends the requests `build` makes and judges each answer, all together: refused, they must leave
 * the state as it was. When some were accepted, which may change it, the refused ones are sent
 * together again on the state made anew; were one of them accepted this time, each is sent alone,
 * judged by the state around it.
 */
export async function checkAll(build: () => Probe[]): Promise<void> {
  const accepted = await sendTogether(build());
  if (accepted.length === 0) return;
  await ensureFixtures();
  const refused = build().filter((_, index) => !accepted.includes(index));
  if ((await sendTogether(refused)).length === 0) return;
  await ensureFixtures();
  for (const probe of refused) await check(probe);
}

/** The fuzzed operations that take a body, read before the file's tests run. */
export function operationsTakingABody(): () => DocumentedOperation[] {
  let writes: DocumentedOperation[] = [];
  beforeAll(async () => {
    writes = (await fuzzedOperations()).filter((operation) => operation.takesBody);
  }, 60_000);
  return () => writes;
}

/** A test for each of `bodies`: sent to every route that takes a body, in turn under /v1 and at the root. */
export function fuzzWithBodies(bodies: readonly AdversarialBody[]): void {
  const writes = operationsTakingABody();
  describe.each(bodies.map((adversarial) => [adversarial.name, adversarial] as const))("%s", (name, adversarial) => {
    it(
      "is answered by every route that takes a body without a server error, and when refused changes nothing",
      async () => {
        const prototypeBefore = objectPrototypeKeys();
        const body = await adversarial.body();
        await checkAll(() =>
          writes().map((operation, turn) => ({
            what: name,
            method: operation.method,
            path: pathOf(operation, turn),
            init: { body, headers: adversarial.headers },
          })),
        );
        expect(objectPrototypeKeys()).toEqual(prototypeBefore);
      },
      fuzzTimeoutMs,
    );
  });
}
