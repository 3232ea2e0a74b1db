import type { MiddlewareHandler } from "hono";
import { joinChunks } from "../chunks.ts";
import { ApiError } from "../problems.ts";

/**
 * How much of a body over the limit is still read, as a multiple of the limit, before the answer.
 * A body not read to its end leaves the client writing into a connection the server is done with:
 * some clients then see a reset instead of the 413, and a proxy in front may fail the next request
 * on the connection. Past this much, the connection is given up instead.
 */
const maxDiscardedLimits = 16;

/** Reads `body` to its end, up to `maxBytes`; whether it ended within them. */
async function discard(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<boolean> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.byteLength;
    if (read > maxBytes) return false;
  }
  return true;
}

/**
 * The body, read to its end if it stays within `maxSize` bytes; undefined for a longer one, read on
 * up to `maxDiscardedLimits` times the limit.
 */
async function readWithin(body: ReadableStream<Uint8Array>, maxSize: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxSize) {
      reader.releaseLock();
      await discard(body, maxSize * maxDiscardedLimits - size);
      return undefined;
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/**
 * Answers a body over `maxSize` bytes 413 as a problem, with `headers` added, once the body is read
 * (see `maxDiscardedLimits`). A declared length is trusted up to the limit, as the runtime holds
 * the body to it; a body without one (chunked) is read here, counted, and handed on whole.
 */
export function problemBodyLimit(maxSize: number, headers?: Record<string, string>): MiddlewareHandler {
  const tooLarge = () =>
    new ApiError("payload-too-large", `The body is larger than the limit of ${maxSize} bytes.`, { headers });
  return async (c, next) => {
    const request = c.req.raw;
    if (!request.body) return next();
    const declared = request.headers.get("content-length");
    if (declared !== null && !request.headers.has("transfer-encoding")) {
      if (Number(declared) <= maxSize) return next();
      if (Number(declared) <= maxSize * maxDiscardedLimits) await discard(request.body, Number(declared));
      throw tooLarge();
    }
    const body = await readWithin(request.body, maxSize);
    if (body === undefined) throw tooLarge();
    c.req.raw = new Request(request, { body });
    await next();
  };
}
