import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/client";
import { OpenApiContract } from "./support/openapi-contract";

/*
 * The check every API test goes through (support/checked-fetch.ts) refuses what the document does
 * not describe; these answers are made up to show that it does.
 */

let contract: OpenApiContract;

beforeAll(async () => {
  contract = new OpenApiContract(await (await api["openapi.json"].$get()).json());
});

function check(method: string, path: string, response: Response): Promise<void> {
  return contract.check(new Request(`http://service${path}`, { method }), response);
}

const unusedMetric = { id: "cpu", observers: 0, dataAccepted: 0, acceptedPerMinute: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };

const problem = (status: number, init: ResponseInit = {}) =>
  Response.json(
    { type: "urn:tower-edge:problem:not-found", title: "Resource not found", status, detail: "No." },
    { ...init, status, headers: { "content-type": "application/problem+json", ...init.headers } },
  );

describe("the contract check", () => {
  it("takes an answer as the document describes it, under either server", async () => {
    await check("GET", "/v1/metrics/cpu", Response.json(unusedMetric));
    await check("GET", "/metrics/cpu", problem(404));
    await check("DELETE", "/metrics/cpu", new Response(null, { status: 204 }));
  });

  it("refuses a field the schema does not have", async () => {
    const leaked = Response.json({ ...unusedMetric, secret: "s" });
    await expect(check("GET", "/metrics/cpu", leaked)).rejects.toThrow(/GET \/metrics\/cpu → 200 .*secret/);
  });

  it("refuses a status the operation does not document", async () => {
    await expect(check("GET", "/metrics", problem(404))).rejects.toThrow("GET /metrics documents no 404");
  });

  it("refuses a body of another media type, or where the document has none", async () => {
    const text = new Response("cpu", { headers: { "content-type": "text/plain" } });
    await expect(check("GET", "/metrics/cpu", text)).rejects.toThrow("200 is not documented as text/plain");
    const typed = new Response(null, { status: 204, headers: { "content-type": "application/json" } });
    await expect(check("DELETE", "/metrics/cpu", typed)).rejects.toThrow("204 is documented without a body");
  });

  it("refuses an answer to an undocumented path or method that is not a problem", async () => {
    await expect(check("GET", "/nope", Response.json({}))).rejects.toThrow("without a problem");
    await check("GET", "/nope", problem(404));
  });

  it("refuses a 405 whose Allow is not what the document has", async () => {
    await check("POST", "/healthz", problem(405, { headers: { allow: "GET, HEAD" } }));
    const wrong = problem(405, { headers: { allow: "GET, HEAD, POST" } });
    await expect(check("POST", "/healthz", wrong)).rejects.toThrow('Allow is not "GET, HEAD"');
  });

  it("refuses a problem of an unknown type", async () => {
    const odd = Response.json(
      { type: "about:blank", title: "Odd", status: 404, detail: "No." },
      { status: 404, headers: { "content-type": "application/problem+json" } },
    );
    await expect(check("GET", "/metrics/cpu", odd)).rejects.toThrow(/type/);
  });
});
