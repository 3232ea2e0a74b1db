import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import { serializerFor } from "../../src/worker/delivery/formats";
import { toRow } from "../../src/worker/intake/queue-message";
import { observerFormats } from "../../src/worker/metrics/observer-kinds";
import type { Datum } from "../../src/worker/vocabulary/datum";
import { api, clientAt } from "./support/client";
import { prefixes, request } from "./support/http";
import { OpenApiContract } from "./support/openapi-contract";

interface Operation {
  requestBody?: { content: Record<string, unknown> };
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
}

let document: Document;

beforeAll(async () => {
  document = (await (await api["openapi.json"].$get()).json()) as unknown as Document;
});

/** Data as observers receive them, special values and characters included. */
const data: Datum[] = [
  { id: "d1", metric: "cpu", timestamp: 1_409_223_851_698, value: 0.11416644992590952, resourceId: "frontend 1" },
  { id: "d2", metric: "CPU load", timestamp: -5, value: Number.NaN, resourceId: "vm,2" },
  { id: "d3", metric: "m=1", timestamp: 0, value: Number.NEGATIVE_INFINITY, resourceId: "a\\b" },
];

/** `/metrics/:id`, `/metrics/{id}` and `/_docs/*` alike: every parameter and wildcard as `{}`. */
function shape(path: string): string {
  return path.replace(/^\/v1(?=\/)/, "").replace(/\{[^}]+\}|:[^/]+|\*/g, "{}");
}

describe("GET /openapi.json", () => {
  it.each(prefixes)("answers the OpenAPI 3.1 document under %o", async (prefix) => {
    const response = await clientAt(prefix)["openapi.json"].$get();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(document);
    expect(document.openapi).toBe("3.1.0");
  });

  it("documents every route of the app", () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== "servers")
        .map((method) => `${method.toUpperCase()} ${shape(path)}`),
    );
    // Not part of the API: the static files (dashboard, reference page). The data collectors' routes under the token
    // prefix are the documented ones again (the tag's description says so).
    const outsideTheApi = /^\/(ui\/|_docs\/|c\/|$)/;
    const routes = createApp()
      .routes.filter((route) => route.method !== "ALL" && !outsideTheApi.test(route.path))
      .map((route) => `${route.method} ${shape(route.path)}`);
    expect(new Set(documented)).toEqual(new Set(routes));
    expect(documented.filter((operation) => / \/(ui|_docs)\/|^GET \/$/.test(operation))).toEqual([]);
  });

  it("states no security requirement while the service runs open, as under npm start", () => {
    const open = document as unknown as {
      security: unknown[];
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    expect(open.security).toEqual([]);
    for (const [path, item] of Object.entries(open.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method !== "servers") expect(operation.security, `${method} ${path}`).toEqual([]);
      }
    }
  });

  it.each(observerFormats)("describes what %s observers receive, under webhooks", (format) => {
    const { contentType, payloads } = serializerFor(format);
    const media = document.webhooks[format]!.post.requestBody!.content;
    expect(Object.keys(media)).toEqual([contentType]);
    const contract = new OpenApiContract(document);
    const pointer = `#/webhooks/${format.replace("/", "~1")}/post/requestBody/content/${contentType.replaceAll("/", "~1")}/schema`;
    // A payload carries data of one metric: each datum in its own, so that every metric's text is checked.
    for (const payload of data.flatMap((datum) => payloads([[datum.metric, [toRow(datum)]]]))) {
      // A protobuf body is documented as bytes alone.
      if (typeof payload !== "string") continue;
      const body = contentType.startsWith("text/") ? payload : JSON.parse(payload);
      expect(contract.schemaProblems(pointer, body), payload).toEqual([]);
    }
  });
});

describe("GET /docs", () => {
  it.each(["/docs", "/v1/docs"])("answers the API reference page at %s", async (path) => {
    const response = await request("GET", path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('src="/_docs/scalar.js"');
    expect(page).toContain('"url":"/openapi.json"');
  });

  it("has its script served by the service itself", async () => {
    const response = await request("GET", "/_docs/scalar.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(await response.text()).toContain("createApiReference");
  });

  it("answers a file that is not there like an unknown path", async () => {
    const response = await request("GET", "/_docs/nope.js");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: "urn:tower-edge:problem:not-found" });
  });

  it("has no script under /v1", async () => {
    expect((await request("GET", "/v1/_docs/scalar.js")).status).toBe(404);
  });
});
