import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { adversarialBodies } from "./support/adversarial-bodies";
import { type DocumentedOperation, documentedOperations, operationPath } from "./support/documented-routes";
import { expectSuccessOrProblem, objectPrototypeKeys } from "./support/fuzz";
import { request, sendJson } from "./support/http";

/*
 * Every documented route under hostile input: path segments that are not UTF-8 or far too long,
 * bodies built to cost a careless reader much more than their size, and random bytes. Each answer
 * must be a success or a problem as the OpenAPI document describes it (never a 500), and a refused
 * request must leave the service as it was. The routes come from /openapi.json, so a new route is
 * covered once it is documented.
 */

/**
 * Routes left out for now: the agents' intake, whose readers are being written. When they land,
 * taking a route off this list runs every case here against it (the gzip bomb among them).
 */
const notFuzzedYet = ["/write", "/api/v2/write", "/ping", "/query", "/api/v1/write", "/otlp/v1/metrics"];

/** Path segments, percent-encoded as they are sent. */
const adversarialSegments = [
  "%FF",
  "a%EF%BF%BDb",
  "%E2%82",
  "100%",
  "%00",
  "%2F..%2F",
  "__proto__",
  "x".repeat(5_000),
  encodeURIComponent("😀".repeat(300)),
];

const adversarialQuery = `?limit=1e309&enabled=%FF&since=${"9".repeat(400)}&x=${"y".repeat(5_000)}`;

const metric = "fuzzed-routes";

/** What each route's path parameters name, when a case wants them to name something that exists. */
interface Fixtures {
  metric: string;
  observerId: string;
  resource: string;
  rule: string;
}

/** Creates (again, after a request removed it) what the paths name; returns the observer's id, new or kept. */
async function ensureFixtures(): Promise<Fixtures> {
  await request("PUT", `/metrics/${metric}`);
  const registered = await sendJson("POST", `/metrics/${metric}/observers`, {
    callbackUrl: "http://fuzzed-routes.example/hook",
  });
  const { id } = (await registered.json()) as { id: string };
  expect((await sendJson("POST", "/resources", [{ clazz: "CloudProvider", id: "fuzzed", type: "IaaS" }])).status).toBe(
    204,
  );
  if ((await request("GET", "/monitoring-rules/fuzzed")).status === 404) {
    const rule = {
      id: "fuzzed",
      timeStep: 60,
      timeWindow: 60,
      monitoredTargets: [{ class: "CloudProvider" }],
      collectedMetric: { metricName: "fuzzed-in" },
      actions: [{ name: "OutputMetric", parameters: { metric: "fuzzed-out" } }],
    };
    await sendJson("POST", "/monitoring-rules", { monitoringRules: [rule] });
  }
  return { metric, observerId: id, resource: "fuzzed", rule: "fuzzed" };
}

function existingSegment(fixtures: Fixtures, operation: DocumentedOperation, parameter: string): string {
  if (operation.template.startsWith("/metrics")) return parameter === "oid" ? fixtures.observerId : fixtures.metric;
  if (operation.template.startsWith("/resources")) return fixtures.resource;
  if (operation.template.startsWith("/monitoring-rules")) return fixtures.rule;
  return "fuzzed";
}

/** What a refused request must leave as it was, as the API shows it. */
async function serviceState(): Promise<unknown> {
  const read = async (path: string, accept = "application/json") => {
    const response = await request("GET", path, { headers: { accept } });
    return { status: response.status, body: await response.text() };
  };
  return Promise.all([
    read("/metrics"),
    read("/resources"),
    read("/monitoring-rules"),
    read(`/metrics/${metric}/observers`),
  ]);
}

let operations: DocumentedOperation[];
let fixtures: Fixtures;
let state: unknown;

/**
 * Sends one request and judges its answer; a refused write must not have changed the state, and an
 * accepted one may have (the fixtures are made again, and the state read anew).
 */
async function check(what: string, method: string, path: string, init: RequestInit = {}): Promise<void> {
  const context = `${method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path} with ${what}`;
  let accepted: boolean;
  const t0 = performance.now();
  try {
    const r = await request(method, path, init);
    const t1 = performance.now();
    accepted = await expectSuccessOrProblem(r);
    console.log("TIMING", Math.round(t1 - t0), r.status, context.slice(0, 150));
  } catch (error) {
    throw new Error(`${context}: ${error instanceof Error ? error.message : error}`);
  }
  if (accepted) {
    const t2 = performance.now();
    fixtures = await ensureFixtures();
    state = await serviceState();
    console.log("TIMING-FIX", Math.round(performance.now() - t2));
  } else if (method !== "GET") {
    const t3 = performance.now();
    const st = await serviceState();
    console.log("TIMING-STATE", Math.round(performance.now() - t3));
    expect(st, `${context} was refused, but changed the state`).toEqual(state);
  }
  if (false) {
    expect(await serviceState(), `${context} was refused, but changed the state`).toEqual(state);
  }
}

const prefixFor = (operation: DocumentedOperation, index: number) =>
  operation.prefixes[index % operation.prefixes.length]!;

beforeAll(async () => {
  operations = (await documentedOperations()).filter(
    (operation) =>
      !notFuzzedYet.some((path) => operation.template === path || operation.template.startsWith(`${path}/`)),
  );
  fixtures = await ensureFixtures();
  state = await serviceState();
});

describe("every documented route", () => {
  it("is fuzzed: the routes of the document are here, bar those not fuzzed yet", () => {
    const routes = operations.map((operation) => `${operation.method} ${operation.template}`);
    expect(routes).toEqual(
      expect.arrayContaining(["PUT /resources", "POST /monitoring-rules", "POST /metrics/{id}/observers/{oid}/retry"]),
    );
    expect(routes.some((route) => notFuzzedYet.some((path) => route.endsWith(` ${path}`)))).toBe(false);
  });

  it("answers path segments that are not UTF-8, far too long or odd, and odd queries, without a server error", async () => {
    const prototypeBefore = objectPrototypeKeys();
    for (const operation of operations) {
      for (const [index, segment] of adversarialSegments.entries()) {
        if (operation.pathParameters.length === 0) break;
        for (const parameter of operation.pathParameters) {
          const path = operationPath(operation, prefixFor(operation, index), (name) =>
            name === parameter ? segment : existingSegment(fixtures, operation, name),
          );
          await check(`the segment ${segment.slice(0, 20)} for {${parameter}}`, operation.method, path);
        }
      }
      const path = operationPath(operation, prefixFor(operation, 1), (name) =>
        existingSegment(fixtures, operation, name),
      );
      await check("odd query parameters", operation.method, `${path}${adversarialQuery}`);
    }
    expect(objectPrototypeKeys()).toEqual(prototypeBefore);
  }, 120_000);

  it("answers hostile bodies without a server error, and a refused one changes nothing", async () => {
    const prototypeBefore = objectPrototypeKeys();
    const bodies = await adversarialBodies();
    for (const operation of operations.filter((candidate) => candidate.takesBody)) {
      for (const [index, { name, body, headers }] of bodies.entries()) {
        const path = operationPath(operation, prefixFor(operation, index), (parameter) =>
          existingSegment(fixtures, operation, parameter),
        );
        await check(name, operation.method, path, { body, headers });
      }
    }
    expect(objectPrototypeKeys()).toEqual(prototypeBefore);
  }, 120_000);

  it("answers random bodies of any content type without a server error, and a refused one changes nothing", async () => {
    const writes = operations.filter((operation) => operation.takesBody);
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)),
      fc.string({ unit: "binary", maxLength: 2_000 }),
      fc.uint8Array({ maxLength: 2_000 }),
      fc
        .tuple(fc.constantFrom("[", '{"a":', "<a>", "<monitoringRule>"), fc.integer({ min: 60, max: 50_000 }))
        .map(([opening, times]) => opening.repeat(times)),
    );
    const contentType = fc.constantFrom(
      "application/json",
      "application/xml",
      "text/plain",
      "application/x-www-form-urlencoded",
      undefined,
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(), body, contentType, async (pick, text, type) => {
        const operation = writes[pick % writes.length]!;
        const path = operationPath(operation, prefixFor(operation, pick), (parameter) =>
          existingSegment(fixtures, operation, parameter),
        );
        await check("a random body", operation.method, path, {
          body: text,
          headers: type === undefined ? {} : { "content-type": type },
        });
      }),
      { numRuns: 100, skipAllAfterTimeLimit: 30_000 },
    );
  }, 120_000);
});
