import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonBody } from "./json-body.ts";
import { problemOnError } from "./problem-handlers.ts";

const schema = z.strictObject({ name: z.string().min(1), count: z.number().int().default(1) });

const app = new Hono();
app.onError(problemOnError("unhandled error"));
app.post("/", jsonBody(schema), (c) => c.json(c.req.valid("json")));

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
});
