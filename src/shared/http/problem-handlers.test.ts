import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../problems.ts";
import { problemOnError, problemOnMethodNotAllowed, problemOnNotFound } from "./problem-handlers.ts";

function appThrowing(error: Error) {
  const app = new Hono();
  app.onError(problemOnError("test: unhandled error"));
  app.get("/", () => {
    throw error;
  });
  return app;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("problemOnError", () => {
  it("answers an ApiError with its problem and headers", async () => {
    const error = new ApiError("unauthorized", "No.", { headers: { "www-authenticate": "Bearer" } });

    const response = await appThrowing(error).request("/");

    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:unauthorized",
      title: "Unauthorized",
      status: 401,
      detail: "No.",
    });
  });

  it.each([
    [400, "malformed-json"],
    [413, "payload-too-large"],
  ] as const)("answers Hono's %i as %s", async (status, code) => {
    const response = await appThrowing(new HTTPException(status, { message: "Refused by Hono" })).request("/");

    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ type: `urn:tower-edge:problem:${code}`, detail: "Refused by Hono" });
  });

  it.each([
    ["an Error", new Error("password=hunter2")],
    ["another HTTPException", new HTTPException(502, { message: "password=hunter2" })],
  ])("answers %s 500 without its details, which go to the log", async (_, error) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);

    const response = await appThrowing(error).request("/");

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:internal",
      title: "Internal server error",
      status: 500,
      detail: "An unexpected error occurred; it has been logged.",
    });
    expect(logged).toHaveBeenCalledWith("test: unhandled error", expect.stringContaining("hunter2"));
  });
});

describe("problemOnNotFound and problemOnMethodNotAllowed", () => {
  const app = new Hono();
  app.notFound(problemOnNotFound);
  app.use(methodNotAllowed({ app, onMethodNotAllowed: problemOnMethodNotAllowed }));
  app.put("/item", (c) => c.body(null, 204));
  app.get("/item", (c) => c.body(null, 204));

  it("answers 404 for an unknown path", async () => {
    const response = await app.request("/nothing");

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:not-found",
      title: "Resource not found",
      status: 404,
      detail: "No route matches /nothing.",
    });
  });

  it("answers 405 with the path's methods, sorted, in Allow", async () => {
    const response = await app.request("/item", { method: "POST" });

    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, PUT");
    expect(await response.json()).toEqual({
      type: "urn:tower-edge:problem:method-not-allowed",
      title: "Method not allowed",
      status: 405,
      detail: "POST is not allowed on /item.",
    });
  });

  it("adds a hint of where the request probably meant to go", async () => {
    const hinted = new Hono();
    hinted.use(
      methodNotAllowed({
        app: hinted,
        onMethodNotAllowed: (c, methods) => problemOnMethodNotAllowed(c, methods, "Send it to /elsewhere."),
      }),
    );
    hinted.get("/item", (c) => c.body(null, 204));
    const response = await hinted.request("/item", { method: "POST" });

    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ detail: "POST is not allowed on /item. Send it to /elsewhere." });
  });
});
