import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data";
import { emptyModel } from "../../support/model";
import { call, tokens } from "./requests";

const prefixes = ["", "/v1"] as const;

/** Every admin route, with a body it would accept. */
const adminRoutes: [method: string, path: string, body?: unknown][] = [
  ["GET", "/resources"],
  ["PUT", "/resources", {}],
  ["POST", "/resources", {}],
  ["GET", "/resources/vm1"],
  ["DELETE", "/resources/vm1"],
  ["GET", "/metrics"],
  ["PUT", "/metrics/cpu"],
  ["GET", "/metrics/cpu"],
  ["DELETE", "/metrics/cpu"],
  ["POST", "/metrics/cpu/observers", { callbackUrl: "https://receiver.example/hook" }],
  ["GET", "/metrics/cpu/observers"],
  ["GET", "/metrics/cpu/observers/o1"],
  ["DELETE", "/metrics/cpu/observers/o1"],
  ["GET", "/usage"],
];
const everyAdminRoute = prefixes.flatMap((prefix) =>
  adminRoutes.map(([method, path, body]) => ({ method, path: `${prefix}${path}`, body })),
);

const intakePaths = prefixes.flatMap((prefix) => [`${prefix}/monitoringdata`, `${prefix}/results`]);
const datum = (metric: string) => rdfJsonBody([{ id: "d1", metric, timestamp: 1, value: 1, resourceId: "vm1" }]);

const missingToken = {
  type: "urn:tower-edge:problem:unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "This route needs a bearer token: send Authorization: Bearer <token>.",
};
const invalidToken = { ...missingToken, detail: "The bearer token is not valid." };
const wrongRole = {
  type: "urn:tower-edge:problem:forbidden",
  title: "Forbidden",
  status: 403,
  detail: "This route needs an admin token; an ingest token may only send monitoring data.",
};

async function expectRefused(response: Response, status: number, body: unknown, challenge: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("www-authenticate")).toBe(challenge);
  expect(await response.json()).toEqual(body);
}

const challenges = {
  missing: 'Bearer realm="tower-edge"',
  invalid: 'Bearer realm="tower-edge", error="invalid_token"',
  scope: 'Bearer realm="tower-edge", error="insufficient_scope"',
};

describe("the health check", () => {
  it.each(["/healthz", "/v1/healthz"])("is open at %s, with no token or a wrong one", async (path) => {
    for (const options of [{}, { token: "wrong" }, { authorization: "Basic Zm9vOmJhcg==" }]) {
      const response = await call("GET", path, options);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "ok" });
    }
  });
});

describe("the API's description", () => {
  it.each(["/openapi.json", "/v1/openapi.json", "/docs", "/v1/docs", "/_docs/scalar.js"])(
    "is open at %s, with no token, a wrong one or an ingest token",
    async (path) => {
      for (const options of [{}, { token: "wrong" }, { token: tokens.ingest }]) {
        const response = await call("GET", path, options);
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }
    },
  );

  it("states each route's access as the service enforces it", async () => {
    type Operation = { security: { bearer: string[] }[] };
    const document = await (await call("GET", "/openapi.json")).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const access = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([key]) => key !== "servers")
        .map(([method, operation]) => ({
          operation: `${method.toUpperCase()} ${path}`,
          roles: operation.security.flatMap(({ bearer }) => bearer).toSorted(),
        })),
    );
    // The static files (the dashboard's, the reference page's) are open too, and not in the document.
    const open = ["GET /healthz", "GET /openapi.json", "GET /docs", "GET /ping", "HEAD /ping"];
    const agents = [
      "POST /write",
      "POST /query",
      "GET /query",
      "POST /api/v2/write",
      "POST /api/v1/write",
      "POST /otlp/v1/metrics",
    ];
    const collectors = [
      "POST /data-collectors",
      "GET /data-collectors",
      "PUT /data-collectors/{id}",
      "GET /data-collectors/{id}",
      "DELETE /data-collectors/{id}",
      "GET /data-collectors/{id}/keepalive",
      "GET /data-collectors/{id}/configuration",
      "POST /streams/{stream}",
      "GET /required-metrics",
    ];
    const intake = ["POST /monitoringdata", "POST /results", ...agents, ...collectors];
    expect(access.map(({ operation }) => operation)).toEqual(expect.arrayContaining([...open, ...intake]));
    for (const { operation, roles } of access) {
      const expected = open.includes(operation) ? [] : intake.includes(operation) ? ["admin", "ingest"] : ["admin"];
      expect(roles, operation).toEqual(expected);
    }
  });

  it("keeps the page's scripts at the root only: under /v1 they need a token like any unknown path", async () => {
    await expectRefused(await call("GET", "/v1/_docs/scalar.js"), 401, missingToken, challenges.missing);
  });
});

describe("the dashboard", () => {
  it.each(["/", "/ui/dashboard.js"])("is open at %s, with no token, a wrong one or an ingest token", async (path) => {
    for (const options of [{}, { token: "wrong" }, { token: tokens.ingest }]) {
      const response = await call("GET", path, options);
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
  });

  it("is at the root only: under /v1 its files need a token like any unknown path", async () => {
    await expectRefused(await call("GET", "/v1/ui/dashboard.js"), 401, missingToken, challenges.missing);
  });
});

describe("without a bearer token", () => {
  it.each(everyAdminRoute)("refuses $method $path with 401", async ({ method, path, body }) => {
    await expectRefused(await call(method, path, { body }), 401, missingToken, challenges.missing);
  });

  it.each(intakePaths)("refuses POST %s with 401", async (path) => {
    await expectRefused(await call("POST", path, { body: datum("cpu") }), 401, missingToken, challenges.missing);
  });

  it.each([
    ["another scheme", "Basic YWRtaW4tMTo="],
    ["the scheme alone", "Bearer"],
    ["a token without the scheme", tokens.admin],
    ["a token followed by more text", `Bearer ${tokens.admin} ${tokens.admin}`],
    ["an empty header", ""],
  ])("treats %s as no token", async (_, authorization) => {
    await expectRefused(await call("GET", "/metrics", { authorization }), 401, missingToken, challenges.missing);
  });
});

describe("with a token that is not configured", () => {
  it.each([
    "wrong",
    `${tokens.admin}x`,
    tokens.admin.slice(0, -1),
    tokens.admin.toUpperCase(),
    `${tokens.admin},${tokens.secondAdmin}`,
    "ingest-2",
  ])("refuses %o with 401 invalid_token", async (token) => {
    const authorization = `Bearer ${token}`;
    await expectRefused(await call("GET", "/metrics", { authorization }), 401, invalidToken, challenges.invalid);
    await expectRefused(
      await call("POST", "/monitoringdata", { authorization, body: datum("cpu") }),
      401,
      invalidToken,
      challenges.invalid,
    );
  });
});

describe("admin tokens", () => {
  it.each([tokens.admin, tokens.secondAdmin])("%s reaches the admin routes (several per role)", async (token) => {
    expect((await call("GET", "/v1/resources", { token })).status).toBe(200);
    expect((await call("PUT", `/metrics/declared-by-${token}`, { token })).status).toBe(201);
    expect(await (await call("GET", "/v1/metrics", { token })).json()).toContain(`declared-by-${token}`);
  });

  it("matches the scheme without regard to case", async () => {
    expect((await call("GET", "/metrics", { authorization: `bearer ${tokens.secondAdmin}` })).status).toBe(200);
    expect((await call("GET", "/metrics", { authorization: `BEARER ${tokens.admin}` })).status).toBe(200);
  });

  it.each(intakePaths)("may also send monitoring data to %s", async (path) => {
    const response = await call("POST", path, { token: tokens.secondAdmin, body: datum("admin-sent") });
    expect(response.status).toBe(204);
  });
});

describe("ingest tokens", () => {
  it.each(intakePaths)("send monitoring data to %s", async (path) => {
    const response = await call("POST", path, { token: tokens.ingest, body: datum("ingested") });
    expect(response.status).toBe(204);
    const metrics = await call("GET", "/metrics", { token: tokens.admin });
    expect(await metrics.json()).toContain("ingested");
  });

  it.each(everyAdminRoute)("are refused on $method $path with 403", async ({ method, path, body }) => {
    await expectRefused(await call(method, path, { token: tokens.ingest, body }), 403, wrongRole, challenges.scope);
  });
});

describe("the API's surface is hidden from clients without a valid token", () => {
  it("answers an unknown path 401 without a token, 403 to an ingest token and 404 to an admin token", async () => {
    await expectRefused(await call("GET", "/v1/nope"), 401, missingToken, challenges.missing);
    await expectRefused(await call("GET", "/v1/nope", { token: tokens.ingest }), 403, wrongRole, challenges.scope);
    const response = await call("GET", "/v1/nope", { token: tokens.admin });
    expect(response.status).toBe(404);
  });

  it("answers a wrong method 401 without a token and 405 with one", async () => {
    await expectRefused(await call("DELETE", "/monitoringdata"), 401, missingToken, challenges.missing);
    for (const token of [tokens.ingest, tokens.admin]) {
      const response = await call("DELETE", "/monitoringdata", { token });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it.each([
    "/healthz%2F..%2Fresources",
    "/v1/healthz/../resources",
    "/healthz/%2e%2e/resources",
    "/monitoringdata%2F..%2Fresources",
    "/v1/v1/healthz",
    "/v1//healthz",
    "//resources",
    "/HEALTHZ",
  ])("does not take %s for an open or ingest route", async (path) => {
    await expectRefused(await call("GET", path), 401, missingToken, challenges.missing);
    await expectRefused(await call("GET", path, { token: tokens.ingest }), 403, wrongRole, challenges.scope);
  });

  it("answers a body over the size limit 401, not 413, without a token", async () => {
    const huge = { padding: "x".repeat(2 * 1024 * 1024) };
    const response = await call("PUT", "/resources", { token: "wrong", body: huge });
    await expectRefused(response, 401, invalidToken, challenges.invalid);
  });
});

describe("a refused request changes nothing", () => {
  it("keeps the model when an upload is refused", async () => {
    const model = { cloudProviders: [{ id: "amazon", type: "IaaS" }] };
    expect((await call("PUT", "/resources", { token: tokens.admin, body: model })).status).toBe(204);
    const replacement = { cloudProviders: [{ id: "azure", type: "IaaS" }] };
    expect((await call("PUT", "/resources", { body: replacement })).status).toBe(401);
    expect((await call("PUT", "/resources", { token: "wrong", body: replacement })).status).toBe(401);
    expect((await call("PUT", "/resources", { token: tokens.ingest, body: replacement })).status).toBe(403);
    const stored = await call("GET", "/resources", { token: tokens.admin });
    expect(await stored.json()).toEqual({ ...emptyModel, ...model });
  });

  it("registers no metric named by refused data", async () => {
    expect((await call("POST", "/monitoringdata", { body: datum("never-seen") })).status).toBe(401);
    expect((await call("POST", "/results", { token: "wrong", body: datum("never-seen") })).status).toBe(401);
    expect((await call("PUT", "/metrics/never-seen", { token: tokens.ingest })).status).toBe(403);
    expect((await call("GET", "/metrics/never-seen", { token: tokens.admin })).status).toBe(404);
    expect(await (await call("GET", "/metrics", { token: tokens.admin })).json()).not.toContain("never-seen");
  });
});

describe("configured tokens", () => {
  it("never appear in an answer, whatever was sent", async () => {
    const responses = [
      await call("GET", "/healthz"),
      await call("GET", "/metrics"),
      await call("GET", "/metrics", { token: `${tokens.admin}-guess` }),
      await call("PUT", "/resources", { token: tokens.ingest, body: {} }),
      await call("GET", "/v1/nope", { token: tokens.admin }),
      await call("DELETE", "/results", { token: tokens.ingest }),
      await call("POST", "/monitoringdata", { token: tokens.ingest, body: { bad: true } }),
    ];
    for (const response of responses) {
      const answer = [...response.headers].flat().join("\n") + (await response.text());
      for (const token of Object.values(tokens)) expect(answer).not.toContain(token);
    }
  });
});
