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

/** A streamed body of `chunks`; `ended()` tells whether it was read to its end. */
function streamOf(...chunks: string[]): ReadableStream<Uint8Array> & { ended(): boolean } {
  let ended = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) {
        ended = true;
        controller.close();
      } else {
        controller.enqueue(new TextEncoder().encode(chunk));
      }
    },
  });
  return Object.assign(stream, { ended: () => ended });
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  app.request("/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

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

  it("answers 413 for a streamed body that grows over the limit, once it has read it to its end", async () => {
    const body = streamOf("12345", "6789", "abc");
    const response = await post(body);

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
    // Read to the end: the client is not left writing into a connection nobody reads.
    expect(body.ended()).toBe(true);
  });

  it("hands a streamed body within the limit on whole", async () => {
    const response = await post(streamOf("1234", "5678"));

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("12345678");
  });

  it("reads a body of a declared length over the limit to its end before answering", async () => {
    const body = streamOf("12345", "6789");
    const response = await post(body, { "content-length": "9" });

    expect(response.status).toBe(413);
    expect(body.ended()).toBe(true);
  });

  it("gives up reading a body far over the limit", async () => {
    const body = streamOf(..."x".repeat(200).split(""));
    const response = await post(body);

    expect(response.status).toBe(413);
    expect(body.ended()).toBe(false);
  });
});
