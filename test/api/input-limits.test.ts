import { describe, expect, it } from "vitest";
import { maxListedProblems } from "../../src/shared/problems";
import { rulesNamespace } from "../../src/worker/rules/document/rule-schema";
import { maxXmlDepth, maxXmlElements } from "../../src/worker/rules/document/xml-tree";
import { request, sendJson } from "./support/http";
import { readModel } from "./support/resources";

/*
 * Bounded work and bounded answers per request: names in paths taken only as UTF-8, identifiers
 * as long as a datum's resourceId at most, rule documents refused at their first element past a
 * limit, and an error answer never many times the request.
 */

const metricNames = async () => (await request("GET", "/metrics")).json();
const ruleIds = async () =>
  (await request("GET", "/monitoring-rules", { headers: { accept: "application/json" } })).json();

async function problemOf(response: Response, status = 400) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()) as { detail: string; errors?: { path: string; message: string }[] };
}

describe("a path that is not UTF-8", () => {
  it.each([
    ["an escape of a byte that is not UTF-8", "PUT", "/metrics/cpu%FFload"],
    ["raw bytes that are not UTF-8, as they reach the Worker", "PUT", "/v1/metrics/cpu%EF%BF%BDload"],
    ["an escape cut short", "PUT", "/metrics/cpu%E2%82"],
    ["a % that starts no escape", "PUT", "/metrics/cpu%zzload"],
    ["an observer's metric", "POST", "/metrics/cpu%C0%AF/observers"],
    ["an observer's id", "GET", "/metrics/cpu/observers/%FF"],
    ["a resource", "GET", "/resources/vm%FF"],
    ["a rule", "DELETE", "/monitoring-rules/r%FF"],
  ])("is refused for %s, and nothing is created", async (_, method, path) => {
    const before = await metricNames();
    const problem = await problemOf(await request(method, path));
    expect(problem.detail).toMatch(/^The path is not valid UTF-8: /);
    expect(problem).not.toHaveProperty("errors");
    expect(await metricNames()).toEqual(before);
  });

  it("lets a name with characters beyond ASCII through, percent-encoded as UTF-8", async () => {
    expect((await request("PUT", `/metrics/${encodeURIComponent("Temperatur-€-😀")}`)).status).toBe(201);
    expect(await metricNames()).toContain("Temperatur-€-😀");
  });
});

describe("identifiers", () => {
  const long = "x".repeat(1_025);

  it("refuses a model element whose id is longer than 1,024 characters, and stores nothing", async () => {
    const before = await readModel();
    const problem = await problemOf(await sendJson("POST", "/resources", [{ clazz: "Method", id: long, type: "m" }]));
    expect(problem.errors).toEqual([{ path: "/0/id", message: "Must be at most 1024 characters." }]);
    const reference = [{ clazz: "VM", id: "vm", type: "t", cloudProvider: long, numberOfCPUs: 1 }];
    expect((await problemOf(await sendJson("PUT", "/resources", reference))).errors).toEqual([
      { path: "/0/cloudProvider", message: "Must be at most 1024 characters." },
    ]);
    expect(await readModel()).toEqual(before);
    expect((await sendJson("POST", "/resources", [{ clazz: "Method", id: long.slice(1), type: "m" }])).status).toBe(
      204,
    );
  });

  it("refuses a rule whose output resourceId or target id is longer than 1,024 characters", async () => {
    const rule = (resourceId: string, targetId: string) => ({
      id: "long-ids",
      timeStep: 60,
      timeWindow: 60,
      monitoredTargets: [{ class: "Method", id: targetId }],
      collectedMetric: { metricName: "ResponseTime" },
      actions: [{ name: "OutputMetric", parameters: { metric: "LongIdsOut", resourceId } }],
    });
    const before = await ruleIds();
    const resourceId = await problemOf(
      await sendJson("POST", "/monitoring-rules", { monitoringRules: [rule("x".repeat(100_000), "m")] }),
    );
    expect(resourceId.errors).toEqual([
      {
        path: "/monitoringRules/0/actions/0/parameters/resourceId",
        message: 'Rule "long-ids": the resourceId must be at most 1024 characters.',
      },
    ]);
    const target = await problemOf(
      await sendJson("POST", "/monitoring-rules", { monitoringRules: [rule("ID", long)] }),
    );
    expect(target.errors).toEqual([
      {
        path: "/monitoringRules/0/monitoredTargets/0/id",
        message: 'Rule "long-ids": Must be at most 1024 characters.',
      },
    ]);
    expect(await ruleIds()).toEqual(before);
  });
});

describe("rule documents in XML", () => {
  const document = (content: string) => `<monitoringRules xmlns="${rulesNamespace}">${content}</monitoringRules>`;
  const post = (xml: string) =>
    request("POST", "/monitoring-rules", { body: xml, headers: { "content-type": "application/xml" } });

  it.each([
    [
      "nested a hundred thousand levels deep",
      document(`${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}`),
      new RegExp(`^The XML nests elements more than ${maxXmlDepth} levels deep, at line 1, column \\d+\\.$`),
    ],
    [
      "of two hundred thousand elements",
      document("<x/>".repeat(200_000)),
      new RegExp(`^The XML holds more than ${maxXmlElements} elements; the next is at line 1, column \\d+\\.$`),
    ],
    [
      "with an entity declared in a DOCTYPE",
      `<!DOCTYPE r [<!ENTITY a "${"a".repeat(1_000)}">]>${document("&a;")}`,
      /^The XML has a DOCTYPE at line 1, column \d+: a rule document needs none, and no entity it declares is expanded\.$/,
    ],
  ])("is refused when %s, naming the limit, and nothing is installed", async (_, xml, message) => {
    const before = await ruleIds();
    const problem = await problemOf(await post(xml));
    expect(problem.errors).toEqual([{ path: "", message: expect.stringMatching(message) }]);
    expect(await ruleIds()).toEqual(before);
  });

  it("is answered at once with its problems when it holds thousands of unknown elements on one line", async () => {
    const problem = await problemOf(await post(document("<x/>".repeat(maxXmlElements - 1))));
    expect(problem.errors).toHaveLength(maxListedProblems);
    expect(problem.detail).toContain(`and ${maxXmlElements - 1 - maxListedProblems} more problems are not.`);
  });
});

describe("an error answer", () => {
  it("lists the first 100 problems and counts the others, staying smaller than the request", async () => {
    const elements = Array.from({ length: 5_000 }, (_, index) => ({ clazz: "VM", id: `vm${index}`, type: "t" }));
    const body = JSON.stringify(elements);
    const response = await request("PUT", "/resources", { body, headers: { "content-type": "application/json" } });
    const text = await response.clone().text();
    const problem = await problemOf(response);
    expect(problem.errors).toHaveLength(maxListedProblems);
    expect(problem.detail).toBe(
      `The request has problems; see errors. The first ${maxListedProblems} problems are listed, and 9900 more problems are not.`,
    );
    expect(text.length).toBeLessThan(body.length);
  });

  it("cuts a message that repeats a long part of the request", async () => {
    const id = "y".repeat(1_000);
    const response = await sendJson("PUT", "/resources", [
      { clazz: "Method", id, type: "m" },
      { clazz: "Method", id, type: "m" },
    ]);
    const [duplicate] = (await problemOf(response)).errors!;
    expect(duplicate!.message.length).toBe(1_000);
    expect(duplicate!.message.endsWith("…")).toBe(true);
  });
});

describe("a rule document whose rules feed each other in one long cycle", () => {
  it("is refused with a short message for each rule", async () => {
    const length = 2_000;
    const rules = Array.from({ length }, (_, index) => ({
      id: `cycle-${index}`,
      timeStep: 60,
      timeWindow: 60,
      monitoredTargets: [{ class: "Method" }],
      collectedMetric: { metricName: `m${index}` },
      actions: [{ name: "OutputMetric", parameters: { metric: `m${(index + 1) % length}` } }],
    }));
    const problem = await problemOf(await sendJson("POST", "/monitoring-rules", { monitoringRules: rules }));
    expect(problem.errors![0]).toEqual({
      path: "/monitoringRules/0/collectedMetric/metricName",
      message: 'Rule "cycle-0" is part of a cycle: m0 → m1 → m2 → m3 → m4 → … → m0.',
    });
    expect(problem.detail).toContain(`and ${length - maxListedProblems} more problems are not.`);
  });
});
