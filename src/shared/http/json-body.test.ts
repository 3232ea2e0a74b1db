import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonBody, optionalJsonBody } from "./json-body.ts";
import { problemOnError } from "./problem-handlers.ts";

const schema = z.strictObject({ name: z.string().min(1), count: z.number().int().default(1) });

const optionalSchema = z.strictObject({ since: z.number().optional() });
const labelsSchema = z.strictObject({
  labels: z.record(z.string().regex(/^[a-z]+$/, "A label name is lower-case letters."), z.string()),
});

const app = new Hono();
app.onError(problemOnError("unhandled error"));
app.post("/", jsonBody(schema), (c) => c.json(c.req.valid("json")));
app.post("/optional", optionalJsonBody(optionalSchema), (c) => c.json(c.req.valid("json")));
app.post("/labels", jsonBody(labelsSchema), (c) => c.json(c.req.valid("json")));

/** A byte body, so that no content type comes with it unless `headers` give one. */
function post(body: string, headers: Record<string, string> = { "content-type": "application/json" }) {
  return app.request("/", { method: "POST", body: new TextEncoder().encode(body), headers });
}

describe("jsonBody", () => {
  it("hands the schema's output to the handler", async () => {
    const response = await post(JSON.stringify({ name: "a" }));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: "a", count: 1 });
  });

  it.each(["application/json; charset=utf-8", "application/problem+json", "Application/JSON"])(
    "takes %s as JSON",
    async (contentType) => {
      expect((await post(JSON.stringify({ name: "a" }), { "content-type": contentType })).status).toBe(200);
    },
  );

  it("reads a body without a content type as JSON", async () => {
    const response = await post(JSON.stringify({ name: "a", count: 2 }), {});

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: "a", count: 2 });
  });

  it("answers 415 for another content type", async () => {
    const response = await post(JSON.stringify({ name: "a" }), { "content-type": "text/plain" });

    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:unsupported-media-type",
      title: "Unsupported media type",
      status: 415,
      detail: "Expected application/json, got text/plain.",
    });
  });

  it.each<[string, Record<string, string>]>([
    ["a JSON content type", { "content-type": "application/json" }],
    ["no content type", {}],
  ])("answers 400 with the parser's reason for text that is not JSON, with %s", async (_, headers) => {
    const response = await post('{"name": ', headers);

    expect(response.status).toBe(400);
    const problem = (await response.json()) as { detail: string };
    expect(problem).toMatchObject({ type: "urn:tower-edge:problem:malformed-json", status: 400 });
    expect(problem.detail).toMatch(/^The body is not valid JSON: \S/);
  });

  it("answers 400 for an empty body", async () => {
    const response = await post("");

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "urn:tower-edge:problem:malformed-json" });
  });

  it("answers 400 with one error per problem, each located by a JSON pointer", async () => {
    const response = await post(JSON.stringify({ name: "", count: 1.5, "a/b": true }));

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:validation-failed",
      title: "Request not valid",
      status: 400,
      detail: "The request has problems; see errors.",
      errors: [
        { path: "/name", message: "Too small: expected string to have >=1 characters" },
        { path: "/count", message: "Invalid input: expected int, received number" },
        { path: "/a~1b", message: "Unknown field." },
      ],
    });
  });

  it("reports a record key that is not valid at the key, with the key's own message", async () => {
    const response = await app.request("/labels", {
      method: "POST",
      body: JSON.stringify({ labels: { ok: "1", "Not OK": "2" } }),
      headers: { "content-type": "application/json" },
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: [{ path: "/labels/Not OK", message: "A label name is lower-case letters." }],
    });
  });
});

describe("optionalJsonBody", () => {
  const postOptional = (init: RequestInit) => app.request("/optional", { method: "POST", ...init });

  it("reads a request without a body as {}", async () => {
    for (const init of [{}, { headers: { "content-length": "0" } }]) {
      const response = await postOptional(init);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
  });

  it("validates a body when there is one", async () => {
    const body = (text: string) => ({ body: text, headers: { "content-type": "application/json" } });
    expect(await (await postOptional(body('{"since":5}'))).json()).toEqual({ since: 5 });
    expect((await postOptional(body('{"until":5}'))).status).toBe(400);
    expect((await postOptional(body("{"))).status).toBe(400);
  });
});
