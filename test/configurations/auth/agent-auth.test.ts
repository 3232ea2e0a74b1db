import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data";
import {
  type AgentRoute,
  agentRoutes,
  influxV1Route,
  influxV2Route,
  otlpJsonRoute,
  remoteWriteRoute,
} from "../../api/support/agent-routes";
import { workerFetch } from "../../api/support/checked-fetch";
import { tokens } from "./requests";

/** The Authorization headers of the agents' clients, each carrying `token`. */
const authorizationForms: [form: string, header: (token: string) => string][] = [
  ["Bearer", (token) => `Bearer ${token}`],
  ["Token (InfluxDB 2.x)", (token) => `Token ${token}`],
  ["token, in lower case", (token) => `token ${token}`],
  ["Basic with a user (InfluxDB 1.x)", (token) => `Basic ${btoa(`telegraf:${token}`)}`],
  ["Basic without a user", (token) => `Basic ${btoa(`:${token}`)}`],
];

function send(path: string, init: RequestInit, authorization?: string): Promise<Response> {
  const headers = new Headers(init.headers);
  if (authorization !== undefined) headers.set("authorization", authorization);
  return workerFetch(`http://service${path}`, { method: "POST", ...init, headers });
}

const sendData = (route: AgentRoute, metric: string, authorization?: string, path = route.path) =>
  send(path, route.send(metric, 1), authorization);

const showDatabases = `/query?q=${encodeURIComponent("SHOW DATABASES")}`;

async function expectAccepted(response: Response, status: number): Promise<void> {
  expect(response.status).toBe(status);
  await response.body?.cancel();
}

const challenges = {
  missing: 'Bearer realm="tower-edge"',
  invalid: 'Bearer realm="tower-edge", error="invalid_token"',
};

async function expectUnauthorized(response: Response, challenge: keyof typeof challenges): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("www-authenticate")).toBe(challenges[challenge]);
  expect(await response.json()).toMatchObject({ type: "urn:tower-edge:problem:unauthorized", status: 401 });
}

/** An agent route's 401, in its protocol's shape, naming the forms its token may take. */
async function expectAgentUnauthorized(
  route: AgentRoute,
  response: Response,
  challenge: keyof typeof challenges,
): Promise<void> {
  expect(response.headers.get("www-authenticate")).toBe(challenges[challenge]);
  expect(await route.refusalMessage(response, 401)).toContain(
    "as the password of Basic credentials (InfluxDB clients send the token as their password, not their user name)",
  );
}

const routeCases = agentRoutes.map((route, index) => ({ route, index }));

describe("agent routes", () => {
  it.each(routeCases)("take an ingest token at $route.name in every Authorization form", async ({ route, index }) => {
    for (const [form, header] of authorizationForms) {
      const response = await sendData(route, `agent.auth.${index}`, header(tokens.ingest));
      expect({ form, status: response.status }).toEqual({ form, status: route.success });
      await response.body?.cancel();
    }
  });

  it.each(routeCases)("take an admin token at $route.name, also under /v1", async ({ route, index }) => {
    await expectAccepted(await sendData(route, `agent.admin.${index}`, `Token ${tokens.secondAdmin}`), route.success);
    await expectAccepted(
      await sendData(route, `agent.admin.${index}`, `Bearer ${tokens.admin}`, `/v1${route.path}`),
      route.success,
    );
  });

  it.each(routeCases)(
    "refuse no token and wrong tokens at $route.name with 401, in their protocol's shape",
    async ({ route }) => {
      await expectAgentUnauthorized(route, await sendData(route, "agent.refused"), "missing");
      for (const [, header] of authorizationForms) {
        await expectAgentUnauthorized(route, await sendData(route, "agent.refused", header("wrong")), "invalid");
      }
    },
  );

  it("refuse Basic credentials without a password, or that are not base64, as no token", async () => {
    for (const authorization of [`Basic ${btoa(`${tokens.ingest}:`)}`, `Basic ${btoa(tokens.ingest)}`, "Basic !!!"]) {
      await expectAgentUnauthorized(
        influxV1Route,
        await sendData(influxV1Route, "agent.refused", authorization),
        "missing",
      );
    }
  });
});

describe("the InfluxDB 1.x API's p= parameter", () => {
  it.each(["/write", "/v1/write"])("carries the token at %s, with any u=", async (path) => {
    for (const token of [tokens.ingest, tokens.admin]) {
      const response = await sendData(
        influxV1Route,
        "agent.query_token",
        undefined,
        `${path}?db=telegraf&u=any&p=${token}`,
      );
      await expectAccepted(response, 204);
    }
  });

  it.each(["/query", "/v1/query"])("carries the token at %s", async (path) => {
    const response = await send(`${path}${showDatabases.slice("/query".length)}&p=${tokens.ingest}`, {});
    await expectAccepted(response, 200);
  });

  it("refuses a wrong token with 401", async () => {
    const wrong = await sendData(influxV1Route, "agent.refused", undefined, "/write?p=wrong");
    await expectAgentUnauthorized(influxV1Route, wrong, "invalid");
    await expectAgentUnauthorized(influxV1Route, await send(`${showDatabases}&p=wrong`, {}), "invalid");
  });

  it.each([
    ["/api/v2/write", influxV2Route],
    ["/api/v1/write", remoteWriteRoute],
    ["/otlp/v1/metrics", otlpJsonRoute],
  ] as const)("is no token at %s", async (path, route) => {
    await expectAgentUnauthorized(
      route,
      await sendData(route, "agent.refused", undefined, `${path}?p=${tokens.ingest}`),
      "missing",
    );
  });

  it("is no token at /monitoringdata", async () => {
    const body = JSON.stringify(rdfJsonBody([{ id: "d1", metric: "m", timestamp: 1, value: 1, resourceId: "vm1" }]));
    const response = await send(`/monitoringdata?p=${tokens.ingest}`, {
      body,
      headers: { "content-type": "application/json" },
    });
    await expectUnauthorized(response, "missing");
  });
});

describe("/query", () => {
  it("takes an ingest token in the Authorization forms", async () => {
    for (const [, header] of authorizationForms) {
      await expectAccepted(await send(showDatabases, {}, header(tokens.ingest)), 200);
    }
  });

  it("refuses a request without a token", async () => {
    await expectAgentUnauthorized(influxV1Route, await send(showDatabases, {}), "missing");
  });
});

describe("/ping", () => {
  it.each(["/ping", "/v1/ping"])("is open at %s, with no token or a wrong one", async (path) => {
    for (const method of ["GET", "HEAD"]) {
      for (const authorization of [undefined, "Bearer wrong", "Token wrong", `Basic ${btoa("u:wrong")}`]) {
        const headers: HeadersInit = authorization === undefined ? {} : { authorization };
        const response = await workerFetch(`http://service${path}`, { method, headers });
        expect(response.status).toBe(204);
      }
    }
  });
});

describe("routes other than the agents'", () => {
  const otherForms = [`Token ${tokens.admin}`, `Basic ${btoa(`admin:${tokens.admin}`)}`];

  it.each(["/metrics", "/v1/metrics", "/resources"])(
    "take no Token, Basic or p= credentials at GET %s",
    async (path) => {
      for (const authorization of otherForms) {
        await expectUnauthorized(await workerFetch(`http://service${path}`, { headers: { authorization } }), "missing");
      }
      await expectUnauthorized(await workerFetch(`http://service${path}?p=${tokens.admin}`), "missing");
      const accepted = await workerFetch(`http://service${path}`, {
        headers: { authorization: `Bearer ${tokens.admin}` },
      });
      await expectAccepted(accepted, 200);
    },
  );

  it("take no Token or Basic credentials at /monitoringdata", async () => {
    const body = JSON.stringify(rdfJsonBody([{ id: "d1", metric: "m", timestamp: 1, value: 1, resourceId: "vm1" }]));
    for (const authorization of [`Token ${tokens.ingest}`, `Basic ${btoa(`u:${tokens.ingest}`)}`]) {
      const response = await send(
        "/monitoringdata",
        { body, headers: { "content-type": "application/json" } },
        authorization,
      );
      await expectUnauthorized(response, "missing");
    }
  });
});

describe("the refusals that say where to send", () => {
  it("tell a 1.x client on /write that the token goes in the password, or p=", async () => {
    const message = await influxV1Route.refusalMessage(await sendData(influxV1Route, "agent.refused"), 401);
    expect(message).toBe(
      "This route needs a token: send an ingest token as Authorization: Bearer <token> or Token <token>, or as the " +
        "password of Basic credentials (InfluxDB clients send the token as their password, not their user name), " +
        "or as p=<token>.",
    );
  });

  it.each(["/v1/metrics", "/metrics"])(
    "point an OTLP exporter posting to %s with an ingest token at /otlp/v1/metrics",
    async (path) => {
      const response = await send(path, otlpJsonRoute.send("agent.misdirected", 1), `Bearer ${tokens.ingest}`);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        detail:
          "This route needs an admin token; an ingest token may only send monitoring data. OTLP metrics go to " +
          "/otlp/v1/metrics: set OTEL_EXPORTER_OTLP_ENDPOINT=http://service/otlp (or " +
          "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=http://service/otlp/v1/metrics).",
      });
    },
  );
});
