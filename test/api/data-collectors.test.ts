import { exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { encodedStream, javaAppRegistration } from "../support/data-collectors";
import { expectProblem, prefixes, request, sendJson } from "./support/http";

// Storage is shared by the tests of this file: every test starts without collectors and rules.

const jsonAccept = { headers: { accept: "application/json" } };

beforeEach(async () => {
  const collectors = (await (await request("GET", "/v1/data-collectors")).json()) as Record<string, unknown>;
  for (const id of Object.keys(collectors)) {
    expect((await request("DELETE", `/v1/data-collectors/${encodeURIComponent(id)}`)).status).toBe(204);
  }
  const rules = (await (await request("GET", "/monitoring-rules", jsonAccept)).json()) as {
    monitoringRules: { id: string }[];
  };
  for (const { id } of rules.monitoringRules) {
    expect((await request("DELETE", `/monitoring-rules/${encodeURIComponent(id)}`)).status).toBe(204);
  }
  // The first test's hook also starts the Worker and builds the OpenAPI document that judges the answers.
}, 30_000);

function rule(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    timeStep: 60,
    timeWindow: 60,
    monitoredTargets: [{ class: "Method", type: "register" }],
    collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "1" } },
    metricAggregation: { aggregateFunction: "Average" },
    actions: [{ name: "OutputMetric", parameters: { metric: `Average${id}` } }],
    ...fields,
  };
}

async function install(...rules: object[]): Promise<void> {
  expect((await sendJson("POST", "/monitoring-rules", { monitoringRules: rules })).status).toBe(204);
}

async function register(body: unknown = javaAppRegistration, prefix = "/v1"): Promise<string> {
  const response = await sendJson("POST", `${prefix}/data-collectors`, body);
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: string };
  expect(id).toMatch(/\S/);
  return id;
}

async function configurationOf(id: string, prefix = "/v1") {
  const response = await request("GET", `${prefix}/data-collectors/${id}/configuration`);
  expect(response.status).toBe(200);
  return response.json();
}

const responseTimeStream = `http://service/streams/${encodedStream("ResponseTime")}`;

describe.each(prefixes)("the collector registry under prefix '%s'", (prefix) => {
  it("registers the Java App collector's body as it is, and lists it", async () => {
    const id = await register(javaAppRegistration, prefix);
    const listed = (await (await request("GET", `${prefix}/data-collectors`)).json()) as Record<string, unknown>;
    expect(Object.keys(listed)).toEqual([id]);
    const one = await request("GET", `${prefix}/data-collectors/${id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ keepAlive: 45, configSyncPeriod: 30 });
  });

  it("merges its resources into the model", async () => {
    await register(javaAppRegistration, prefix);
    const method = await request("GET", `${prefix}/resources/register_2047568`);
    expect(await method.json()).toEqual({ clazz: "Method", id: "register_2047568", type: "register" });
    expect(await (await request("GET", `${prefix}/resources/Frontend1`)).json()).toEqual({
      clazz: "VM",
      id: "Frontend1",
      type: "Frontend",
      cloudProvider: "AWS",
    });
  });

  it("answers keep-alives 204 and unknown collectors 404", async () => {
    const id = await register(javaAppRegistration, prefix);
    expect((await request("GET", `${prefix}/data-collectors/${id}/keepalive`)).status).toBe(204);
    expect((await request("GET", `${prefix}/data-collectors/nobody/keepalive`)).status).toBe(404);
    expect((await request("GET", `${prefix}/data-collectors/nobody/configuration`)).status).toBe(404);
    expect((await request("GET", `${prefix}/data-collectors/nobody`)).status).toBe(404);
    expect((await request("DELETE", `${prefix}/data-collectors/nobody`)).status).toBe(404);
  });

  it("registers again by PUT under an id it never issued", async () => {
    const response = await sendJson("PUT", `${prefix}/data-collectors/old-id`, javaAppRegistration);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: "old-id" });
    expect((await request("GET", `${prefix}/data-collectors/old-id/keepalive`)).status).toBe(204);
  });

  it("removes a collector by DELETE, and its resources with it", async () => {
    const id = await register(javaAppRegistration, prefix);
    expect((await request("DELETE", `${prefix}/data-collectors/${id}`)).status).toBe(204);
    expect((await request("GET", `${prefix}/data-collectors/${id}`)).status).toBe(404);
    expect((await request("GET", `${prefix}/resources/register_2047568`)).status).toBe(404);
  });
});

describe("registration problems", () => {
  it("refuses a resource of no known class, registering nothing", async () => {
    const body = { ...javaAppRegistration, resources: [{ clazz: "Server", id: "s1" }] };
    const response = await sendJson("POST", "/v1/data-collectors", body);
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: { path: string }[] };
    expect(errors.map((error) => error.path)).toEqual(["/resources/0/clazz"]);
    expect(await (await request("GET", "/v1/data-collectors")).json()).toEqual({});
  });

  it("refuses resources whose references resolve to nothing, located in the body", async () => {
    const body = { resources: [{ clazz: "VM", id: "vm1", cloudProvider: "nowhere" }] };
    const response = await sendJson("POST", "/v1/data-collectors", body);
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: { path: string }[] };
    expect(errors.map((error) => error.path)).toEqual(["/resources/0/cloudProvider"]);
  });

  it("refuses a keepAlive that is not a whole number", async () => {
    await expectProblem(await sendJson("POST", "/v1/data-collectors", { keepAlive: "45" }), 400, expect.anything());
  });
});

describe("the configuration", () => {
  it("is {} while no installed rule collects what the collector declared", async () => {
    const id = await register();
    expect(await configurationOf(id)).toEqual({});
  });

  it("follows the installed rules, with the stream address of the request's origin", async () => {
    const id = await register();
    await install(rule("a"));
    expect(await configurationOf(id)).toEqual({
      ResponseTime: [
        {
          parameters: { samplingProbability: "1" },
          targetResources: [["Method", "register", null]],
          daUrl: responseTimeStream,
          dataFormat: "TOWER/JSON",
        },
      ],
    });
    expect((await request("DELETE", "/monitoring-rules/a")).status).toBe(204);
    expect(await configurationOf(id)).toEqual({});
  });

  it("counts identical configurations once, and ignores rules about other resources", async () => {
    const id = await register();
    await install(
      rule("a"),
      rule("b"),
      rule("other-type", { monitoredTargets: [{ class: "Method", type: "login" }] }),
      rule("other-class", { monitoredTargets: [{ class: "VM" }] }),
    );
    const configuration = (await configurationOf(id)) as Record<string, unknown[]>;
    expect(configuration.ResponseTime).toHaveLength(1);
  });

  it("stays the same when a rule is disabled", async () => {
    const id = await register();
    await install(rule("a"));
    const before = await configurationOf(id);
    expect((await request("GET", "/monitoring-rules/a?enabled=false")).status).toBe(204);
    expect(await configurationOf(id)).toEqual(before);
  });
});

describe("POST /streams/:stream", () => {
  it("answers 200 with the original's body", async () => {
    const stream = encodedStream("StreamTestMetric");
    const response = await sendJson("POST", `/streams/${stream}`, [
      { resourceId: "r1", metric: "StreamTestMetric", value: 1.5 },
      { resourceId: "r1", metric: "StreamTestMetric", value: "2" },
      { resourceId: "r1", metric: "StreamTestMetric", value: true },
      { resourceId: "r1", metric: "StreamTestMetric", value: "up" },
    ]);
    expect(response.status).toBe(200);
    expect(await response.json()).toBe("Stream http://www.modaclouds.eu/streams/StreamTestMetric succesfully feeded");
    expect(await (await request("GET", "/metrics")).json()).toContain("StreamTestMetric");
  });

  it("refuses a body that is not an array of data", async () => {
    const stream = encodedStream("StreamTestMetric");
    expect((await sendJson("POST", `/v1/streams/${stream}`, { resourceId: "r1" })).status).toBe(400);
    expect((await sendJson("POST", `/v1/streams/${stream}`, [{ resourceId: "r1", metric: "m" }])).status).toBe(400);
  });
});

describe("GET /required-metrics", () => {
  it("lists what the rules read and no rule produces, sorted", async () => {
    await install(
      rule("a", { collectedMetric: { metricName: "Zeta" } }),
      rule("b", { collectedMetric: { metricName: "Alpha" } }),
      rule("c", { collectedMetric: { metricName: "Averagea" } }),
    );
    const response = await request("GET", "/v1/required-metrics");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(["Alpha", "Zeta"]);
  });
});

// Outside the OpenAPI document's two servers, so sent to the Worker directly rather than through the judge.
describe("the token prefix", () => {
  const direct = (method: string, path: string, body?: unknown) =>
    exports.default.fetch(`http://service${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });

  it("serves the protocol under /c/<token>/ and carries the prefix into the daUrl", async () => {
    const registered = await direct("POST", "/c/some-token/v1/data-collectors", javaAppRegistration);
    expect(registered.status).toBe(201);
    const { id } = (await registered.json()) as { id: string };
    await install(rule("a"));
    const answer = await direct("GET", `/c/some-token/v1/data-collectors/${id}/configuration`);
    expect(answer.status).toBe(200);
    const configuration = (await answer.json()) as Record<string, { daUrl: string }[]>;
    const daUrl = configuration.ResponseTime?.[0]?.daUrl ?? "";
    expect(daUrl).toBe(`http://service/c/some-token/streams/${encodedStream("ResponseTime")}`);
    const sent = await direct("POST", new URL(daUrl).pathname, [{ resourceId: "r", metric: "ResponseTime", value: 1 }]);
    expect(sent.status).toBe(200);
    expect((await direct("GET", "/c/some-token/v1/data-collectors")).status).toBe(200);
  });

  it("serves nothing else under it", async () => {
    expect((await direct("GET", "/c/some-token/v1/resources")).status).toBe(404);
  });
});

describe("GET /data-collector-states", () => {
  it("shows each collector with its configuration and timing", async () => {
    const id = await register();
    await install(rule("a"));
    const response = await request("GET", "/v1/data-collector-states");
    expect(response.status).toBe(200);
    const [state] = (await response.json()) as { id: string; configuration: object; expiresAt: string }[];
    expect(state?.id).toBe(id);
    expect(Object.keys(state?.configuration ?? {})).toEqual(["ResponseTime"]);
    expect(Date.parse(state?.expiresAt ?? "")).toBeGreaterThan(Date.now());
  });
});

describe("in /prometheus", () => {
  it("counts the collectors and tells how long each has been silent", async () => {
    const id = await register();
    const text = await (await request("GET", "/prometheus")).text();
    expect(text).toContain("# TYPE tower_data_collectors gauge\ntower_data_collectors 1\n");
    expect(text).toMatch(new RegExp(`tower_data_collector_last_heard_seconds\\{collector="${id}"\\} [\\d.]+\\n`));
  });
});
