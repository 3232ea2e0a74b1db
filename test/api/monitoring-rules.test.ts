import { beforeEach, describe, expect, it } from "vitest";
import { validOriginalDocuments, wrongAtosRule } from "../../src/worker/rules/document/fixtures/original-documents";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";

// Storage is shared by the tests of this file: every test starts without rules.

interface RuleFields {
  [field: string]: unknown;
}

const jsonAccept = { headers: { accept: "application/json" } };

async function installedIds(): Promise<string[]> {
  const listed = (await (await request("GET", "/monitoring-rules", jsonAccept)).json()) as {
    monitoringRules: { id: string }[];
  };
  return listed.monitoringRules.map((rule) => rule.id);
}

beforeEach(async () => {
  for (const id of await installedIds()) {
    expect((await request("DELETE", `/monitoring-rules/${encodeURIComponent(id)}`)).status).toBe(204);
  }
});

function postXml(xml: string, contentType = "application/xml", prefix = "") {
  return request("POST", `${prefix}/monitoring-rules`, { body: xml, headers: { "content-type": contentType } });
}

function averageRule(fields: RuleFields = {}): RuleFields {
  return {
    id: "average",
    timeStep: 60,
    timeWindow: 60,
    monitoredTargets: [{ class: "Method", type: "register" }],
    collectedMetric: { metricName: "ResponseTime" },
    metricAggregation: { aggregateFunction: "Average", groupingClass: "Method" },
    actions: [
      { name: "OutputMetric", parameters: { metric: "AverageResponseTime", resourceId: "ID", value: "METRIC" } },
    ],
    ...fields,
  };
}

function install(...rules: RuleFields[]) {
  return sendJson("POST", "/monitoring-rules", { monitoringRules: rules });
}

async function problemsOf(response: Response): Promise<{ path: string; message: string }[]> {
  expect(response.status).toBe(400);
  return ((await response.json()) as { errors: { path: string; message: string }[] }).errors;
}

describe("the original's documents", () => {
  it.each([
    [
      "AvgResponseTimeRule.xml (default namespace)",
      validOriginalDocuments["AvgResponseTimeRule.xml"],
      ["AvgResponseTimeRule"],
    ],
    ["AtosMonitoringRules.xml (mo: prefix, eight rules)", validOriginalDocuments["AtosMonitoringRules.xml"], 8],
    [
      "EffectiveResponseTimeRule.xml (value SUM(METRIC)/COUNT(METRIC))",
      validOriginalDocuments["EffectiveResponseTimeRule.xml"],
      2,
    ],
    [
      "MonitoringRules.xml (with a RestCall)",
      validOriginalDocuments["MonitoringRules.xml"],
      ["cpuRule", "respTimeRule", "EffectiveResponseTimeRule", "RestCallRule"],
    ],
    [
      "rules4TrafficGenerator.xml (chained rules)",
      validOriginalDocuments["rules4TrafficGenerator.xml"],
      ["ResponseTimeRule", "CounterRule", "ViolationRule"],
    ],
  ])("installs %s unchanged", async (_, document, expected) => {
    expect((await postXml(document)).status).toBe(204);
    const ids = await installedIds();
    if (typeof expected === "number") expect(ids).toHaveLength(expected);
    else expect(ids).toEqual(expected);
  });

  it("reads XML whatever the Content-Type says, as the original's client labels it application/json", async () => {
    expect((await postXml(validOriginalDocuments["AvgResponseTimeRule.xml"], "application/json")).status).toBe(204);
    expect(await installedIds()).toEqual(["AvgResponseTimeRule"]);
  });

  it("rejects WrongAtosRule.xml with every problem, and installs nothing", async () => {
    const problems = await problemsOf(await postXml(wrongAtosRule));
    const id =
      "35c19584-2cca-40ad-8a42-7e522a35f85f_af54b44f-2f93-408b-87d4-f3540fdc49a5_2468ecf1-18e3-42ef-af4b-a94e3d78d823_6ca5e99c-0e39-4d9f-a599-fc110246361e_seff";
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: "/monitoringRules/0/collectedMetric/metricName", message: expect.stringContaining(`Rule "${id}"`) },
        {
          path: "/monitoringRules/0/collectedMetric/collectedMetric",
          message: expect.stringContaining("Unknown field"),
        },
        { path: "/monitoringRules/0/actions", message: expect.stringContaining("exactly one action") },
      ]),
    );
    expect(await installedIds()).toEqual([]);
  });

  it("refuses a document that is not well-formed XML, naming where", async () => {
    const problems = await problemsOf(await postXml("<monitoringRules><monitoringRule></monitoringRules>"));
    expect(problems[0]?.message).toMatch(/line 1, column \d+/);
  });

  it("refuses elements outside the original's namespace", async () => {
    const problems = await problemsOf(
      await postXml(validOriginalDocuments["AvgResponseTimeRule.xml"].replace("xsd/1.0", "xsd/9.9")),
    );
    expect(problems).toHaveLength(1);
  });
});

describe("GET /monitoring-rules and /monitoring-rules/:id", () => {
  it.each(prefixes)("answers XML by default and JSON when Accept prefers it (prefix '%s')", async (prefix) => {
    expect((await postXml(validOriginalDocuments["AvgResponseTimeRule.xml"], "application/xml", prefix)).status).toBe(
      204,
    );
    const asXml = await request("GET", `${prefix}/monitoring-rules`);
    expect(asXml.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await asXml.text();
    expect(xml).toContain('<monitoringRule id="AvgResponseTimeRule"');
    expect(xml).toContain('xmlns="http://www.modaclouds.eu/xsd/1.0/monitoring_rules_schema"');

    const asJson = await request("GET", `${prefix}/monitoring-rules`, jsonAccept);
    expect(await asJson.json()).toEqual({
      monitoringRules: [
        {
          id: "AvgResponseTimeRule",
          label: "Avg RT Rule",
          startEnabled: true,
          enabled: true,
          timeStep: 60,
          timeWindow: 60,
          allowedLatenessSeconds: 5,
          monitoredTargets: [{ class: "Method", type: "register" }],
          collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "1" } },
          metricAggregation: { aggregateFunction: "Average", groupingClass: "Method", parameters: {} },
          actions: [
            {
              name: "OutputMetric",
              parameters: { resourceId: "ID", metric: "AverageResponseTime", value: "METRIC" },
            },
          ],
        },
      ],
    });
  });

  it("re-installs what GET answered in XML", async () => {
    expect((await postXml(validOriginalDocuments["AtosMonitoringRules.xml"])).status).toBe(204);
    const before = await (await request("GET", "/monitoring-rules", jsonAccept)).json();
    const xml = await (await request("GET", "/monitoring-rules")).text();
    for (const id of await installedIds()) await request("DELETE", `/monitoring-rules/${id}`);
    expect((await postXml(xml)).status).toBe(204);
    expect(await (await request("GET", "/monitoring-rules", jsonAccept)).json()).toEqual(before);
  });

  it("answers one rule with its status in JSON, and 404 for an unknown one", async () => {
    expect((await install(averageRule())).status).toBe(204);
    const one = await request("GET", "/monitoring-rules/average", jsonAccept);
    expect(await one.json()).toMatchObject({
      id: "average",
      enabled: true,
      status: {
        enabled: true,
        windowsEvaluated: 0,
        dataRead: 0,
        dataEmitted: 0,
        dataLate: 0,
        lastEvaluationAt: null,
        lastError: null,
      },
    });
    const asXml = await (await request("GET", "/monitoring-rules/average")).text();
    expect(asXml).toContain('<monitoringRule id="average"');
    await expectProblem(await request("GET", "/monitoring-rules/nothing"), 404, {
      type: "urn:tower-edge:problem:not-found",
      title: "Resource not found",
      status: 404,
      detail: 'No rule has the id "nothing".',
    });
  });
});

describe("enabling and disabling", () => {
  it("installs a rule with startEnabled false disabled", async () => {
    expect((await install(averageRule({ startEnabled: false }))).status).toBe(204);
    const one = await request("GET", "/monitoring-rules/average", jsonAccept);
    expect(await one.json()).toMatchObject({ enabled: false, status: { enabled: false } });
  });

  it("follows the original's ?enabled=true|false with 204", async () => {
    expect((await install(averageRule())).status).toBe(204);
    expect((await request("GET", "/monitoring-rules/average?enabled=false")).status).toBe(204);
    expect(await (await request("GET", "/monitoring-rules/average", jsonAccept)).json()).toMatchObject({
      enabled: false,
    });
    expect((await request("GET", "/monitoring-rules/average?enabled=true")).status).toBe(204);
    expect(await (await request("GET", "/monitoring-rules/average", jsonAccept)).json()).toMatchObject({
      enabled: true,
    });
    expect((await request("GET", "/monitoring-rules/average?enabled=maybe")).status).toBe(400);
    expect((await request("GET", "/monitoring-rules/nothing?enabled=true")).status).toBe(404);
  });

  it("PATCH {enabled} answers the rule as it is now, with its status as GET answers it", async () => {
    expect((await install(averageRule())).status).toBe(204);
    const patched = await sendJson("PATCH", "/monitoring-rules/average", { enabled: false });
    expect(patched.status).toBe(200);
    const answer = await patched.json();
    expect(answer).toMatchObject({ id: "average", enabled: false, status: { enabled: false, windowsEvaluated: 0 } });
    expect(answer).toEqual(await (await request("GET", "/monitoring-rules/average", jsonAccept)).json());
    expect((await sendJson("PATCH", "/monitoring-rules/nothing", { enabled: true })).status).toBe(404);
  });

  it.each([
    ["a string", { enabled: "yes" }, 'Must be true or false (a JSON boolean, without quotes), not "yes".'],
    ["a number", { enabled: 1 }, "Must be true or false (a JSON boolean, without quotes), not 1."],
    ["nothing", {}, "Required: enabled, true or false."],
  ])("PATCH refuses enabled given as %s, saying what it must be", async (_case, body, message) => {
    expect((await install(averageRule())).status).toBe(204);
    await expectProblem(
      await sendJson("PATCH", "/monitoring-rules/average", body),
      400,
      validationProblem("The request has problems; see errors.", [{ path: "/enabled", message }]),
    );
  });
});

describe("output metrics", () => {
  it("are declared when the rule is installed, observable, and keep existing after the rule is deleted, without observers", async () => {
    expect((await install(averageRule())).status).toBe(204);
    const metrics = (await (await request("GET", "/metrics")).json()) as string[];
    expect(metrics).toContain("AverageResponseTime");
    const observed = await sendJson("POST", "/metrics/AverageResponseTime/observers", {
      format: "TOWER/JSON",
      callbackUrl: "http://127.0.0.1:9/average",
    });
    expect(observed.status).toBe(201);

    expect((await request("DELETE", "/monitoring-rules/average")).status).toBe(204);
    expect((await request("DELETE", "/monitoring-rules/average")).status).toBe(404);
    const metric = await request("GET", "/metrics/AverageResponseTime");
    expect(await metric.json()).toMatchObject({ id: "AverageResponseTime", observers: 0 });
  });

  it("is produced by one rule only", async () => {
    expect((await install(averageRule())).status).toBe(204);
    const problems = await problemsOf(await install(averageRule({ id: "another" })));
    expect(problems).toEqual([
      {
        path: "/monitoringRules/0/actions/0/parameters/metric",
        message:
          'Rule "another": the metric "AverageResponseTime" is already produced by rule "average"; a metric has one producing rule.',
      },
    ]);
  });

  it("refuses rules that would feed each other in a cycle", async () => {
    const output = (metric: string) => [{ name: "OutputMetric", parameters: { metric } }];
    const problems = await problemsOf(
      await install(
        averageRule({ id: "a-to-b", collectedMetric: { metricName: "A" }, actions: output("B") }),
        averageRule({ id: "b-to-a", collectedMetric: { metricName: "B" }, actions: output("A") }),
      ),
    );
    expect(problems.map((problem) => problem.path)).toContain("/monitoringRules/1/collectedMetric/metricName");
    expect(problems[0]?.message).toContain("cycle");
    expect(await installedIds()).toEqual([]);
  });
});

describe("all or nothing", () => {
  it("installs none of a document's rules when one has a problem, and lists every problem", async () => {
    const problems = await problemsOf(
      await install(
        averageRule({ id: "fine" }),
        averageRule({
          id: "broken",
          timeStep: 120,
          metricAggregation: { aggregateFunction: "Median" },
          condition: "METRIC >",
          actions: [{ name: "CloudMLCall", parameters: {} }],
        }),
      ),
    );
    expect(problems.map((problem) => problem.path)).toEqual([
      "/monitoringRules/1/timeStep",
      "/monitoringRules/1/metricAggregation/aggregateFunction",
      "/monitoringRules/1/condition",
      "/monitoringRules/1/actions/0/name",
    ]);
    expect(problems.every((problem) => problem.message.startsWith('Rule "broken": '))).toBe(true);
    expect(await installedIds()).toEqual([]);
  });

  it("refuses an id used twice in a document or already installed", async () => {
    const other = [{ name: "OutputMetric", parameters: { metric: "Other" } }];
    const twice = await problemsOf(await install(averageRule(), averageRule({ actions: other })));
    expect(twice).toEqual([
      { path: "/monitoringRules/1/id", message: 'Rule "average" is also at /monitoringRules/0.' },
    ]);
    expect((await install(averageRule())).status).toBe(204);
    const again = await problemsOf(await install(averageRule()));
    expect(again[0]).toEqual({
      path: "/monitoringRules/0/id",
      message: 'Rule "average" is already installed; delete it first.',
    });
  });

  it.each([
    ["an empty body, as curl sends for a file it could not open", "", "The body is empty"],
    ["a body of blanks", " \n", "The body is empty"],
    ["a body that is neither XML nor JSON", "monitoringRules", 'The body starts with "m"'],
  ])("refuses %s as no rule document", async (_case, body, start) => {
    const answer = await request("POST", "/monitoring-rules", { body, headers: { "content-type": "text/plain" } });
    const expected =
      'expected a rule document in XML (<monitoringRules>…) or JSON ({"monitoringRules":[…]}); nothing was installed.';
    await expectProblem(answer, 400, {
      type: "urn:tower-edge:problem:validation-failed",
      title: "Request not valid",
      status: 400,
      detail: `${start}: ${expected}`,
    });
  });

  it("refuses broken JSON as JSON", async () => {
    const answer = await request("POST", "/monitoring-rules", { body: '{"monitoringRules":[', headers: {} });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { type: string }).type).toBe("urn:tower-edge:problem:malformed-json");
  });
});
