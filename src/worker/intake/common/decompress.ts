import { joinChunks } from "../../../shared/chunks";
import { ApiError } from "../../../shared/problems";

/** Where a decompressed body would pass the limit: the request is refused whole (413). */
export function decompressedTooLarge(maxBytes: number): ApiError {
  return new ApiError(
    "payload-too-large",
    `The body is larger than MAX_DECOMPRESSED_BYTES (${maxBytes} bytes) once decompressed; send smaller batches.`,
  );
}

/**
 * A gzip body decompressed, read chunk by chunk and given up as soon as it passes `maxBytes`, so
 * a small body that expands enormously (a gzip bomb) costs no more than the limit.
 */
export async function gunzip(compressed: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = new Blob([compressed]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw decompressedTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("validation-failed", "The body is not valid gzip; nothing was accepted.");
  }
  return joinChunks(chunks, size);
}

/** The decoders of the `Content-Encoding`s a route takes besides gzip and none; each returns new bytes. */
export type BodyDecoders = Record<string, (bytes: Uint8Array, maxBytes: number) => Uint8Array>;

/**
 * A request's body as the agent encoded it, decompressed as its `Content-Encoding` says (gzip on
 * every route, others as the route adds them), at most `maxBytes` once decompressed; 415 for an
 * encoding the route does not take.
 */
export async function decodedBody(
  request: Request,
  maxBytes: number,
  decoders: BodyDecoders = {},
): Promise<Uint8Array> {
  const encoding = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (encoding === "" || encoding === "identity") {
    if (bytes.byteLength > maxBytes) throw decompressedTooLarge(maxBytes);
    return bytes;
  }
  const decode = encoding === "gzip" || encoding === "x-gzip" ? gunzip : decoders[encoding];
  if (decode) return decode(bytes, maxBytes);
  const accepted = ["gzip", ...Object.keys(decoders)].join(", ");
  throw new ApiError(
    "unsupported-media-type",
    `Content-Encoding ${JSON.stringify(encoding)} is not supported here; send the body uncompressed or as ${accepted}.`,
  );
}
