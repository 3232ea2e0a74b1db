import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { problemBodyLimit } from "./body-limit.ts";
import { problemOnError } from "./problem-handlers.ts";

const app = new Hono();
app.onError(problemOnError("unhandled error"));
app.post("/", problemBodyLimit(8, { connection: "close" }), async (c) => c.text(await c.req.text()));

const tooLarge = {
  type: "urn:tower-edge:problem:payload-too-large",
  title: "Payload too large",
  status: 413,
  detail: "The body is larger than the limit of 8 bytes.",
};

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
}

describe("problemBodyLimit", () => {
  it("lets a body up to the limit through", async () => {
    const response = await app.request("/", { method: "POST", body: "12345678" });

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("12345678");
  });

  it("answers 413 with the given headers for a declared length over the limit", async () => {
    const response = await app.request("/", { method: "POST", body: "123456789", headers: { "content-length": "9" } });

    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual(tooLarge);
  });

  it("answers 413 for a streamed body that grows over the limit", async () => {
    const response = await app.request("/", {
      method: "POST",
      body: streamOf("12345", "6789"),
      duplex: "half",
    } as RequestInit);

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
  });
});
