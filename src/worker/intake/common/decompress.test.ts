import { afterEach, describe, expect, it, vi } from "vitest";
import { gzip } from "../../../../test/api/support/agent-routes";
import { ApiError } from "../../../shared/problems";
import { decodedBody, decompressedTooLarge, gunzip } from "./decompress";

const encoder = new TextEncoder();

/** Bytes that compress poorly, so that decompressing them takes several chunks. */
function noise(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = 0x2545f491;
  for (let index = 0; index < size; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

const mebibyte = 1_048_576;

/** 16 MiB of zeros, gzipped: a body of some kilobytes. */
const gzipBomb = gzip(...Array.from({ length: 16 }, () => new Uint8Array(mebibyte)));

/** Counts what the DecompressionStreams made from now on: how many bytes, in how many chunks. */
function countDecompression(): { bytes: number; chunks: number } {
  const RealDecompressionStream = DecompressionStream;
  const made = { bytes: 0, chunks: 0 };
  vi.stubGlobal(
    "DecompressionStream",
    function CountingDecompressionStream(format: ConstructorParameters<typeof DecompressionStream>[0]) {
      const inner = new RealDecompressionStream(format);
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          made.bytes += chunk.byteLength;
          made.chunks++;
          controller.enqueue(chunk);
        },
      });
      return { writable: inner.writable, readable: inner.readable.pipeThrough(counter) };
    },
  );
  return made;
}

const sameBytes = (left: Uint8Array, right: Uint8Array) =>
  left.byteLength === right.byteLength && left.every((byte, index) => byte === right[index]);

const post = (body: Uint8Array, encoding?: string) =>
  new Request("http://service/write", {
    method: "POST",
    body,
    headers: encoding === undefined ? {} : { "content-encoding": encoding },
  });

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function expectTooLarge(promise: Promise<unknown>, maxBytes: number): Promise<void> {
  const error = await refusal(promise);
  expect({ code: error.code, status: error.status, message: error.message }).toEqual({
    code: "payload-too-large",
    status: 413,
    message: decompressedTooLarge(maxBytes).message,
  });
}

async function expectNotGzip(promise: Promise<unknown>): Promise<void> {
  const error = await refusal(promise);
  expect({ code: error.code, status: error.status, message: error.message }).toEqual({
    code: "validation-failed",
    status: 400,
    message: "The body is not valid gzip; nothing was accepted.",
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("gunzip", () => {
  it("gives back what was compressed", async () => {
    const text = "cpu,host=vm1 usage_idle=90 1700000000000000000\n".repeat(100);
    expect(new TextDecoder().decode(await gunzip(await gzip(text), mebibyte))).toBe(text);
  });

  it("puts a body of many chunks together", async () => {
    const original = noise(mebibyte + 17);
    const compressed = await gzip(original);
    const made = countDecompression();
    expect(sameBytes(await gunzip(compressed, 2 * mebibyte), original)).toBe(true);
    expect(made.chunks).toBeGreaterThan(1);
  });

  it("gives back an empty body", async () => {
    expect(await gunzip(await gzip(), 0)).toEqual(new Uint8Array(0));
  });

  it("takes a body of exactly the limit and refuses one a byte over it", async () => {
    const compressed = await gzip(noise(100_000));
    expect((await gunzip(compressed, 100_000)).byteLength).toBe(100_000);
    await expectTooLarge(gunzip(compressed, 99_999), 99_999);
  });

  it("refuses a gzip bomb with 413, having decompressed little more than the limit", async () => {
    const compressed = await gzipBomb;
    expect(compressed.byteLength).toBeLessThan(mebibyte);
    const made = countDecompression();
    await expectTooLarge(gunzip(compressed, 65_536), 65_536);
    expect(made.bytes).toBeGreaterThan(65_536);
    expect(made.bytes).toBeLessThan(mebibyte);
  });

  it.each([
    ["bytes that are not gzip", async () => encoder.encode("cpu value=1")],
    ["a gzip body cut short", async () => (await gzip(noise(10_000))).subarray(0, 5_000)],
    ["a gzip body without its trailer", async () => (await gzip("cpu value=1\n".repeat(50))).slice(0, -8)],
    [
      "a gzip body with a wrong checksum",
      async () => {
        const bytes = (await gzip("cpu value=1\n".repeat(50))).slice();
        bytes[bytes.length - 8]! ^= 0xff;
        return bytes;
      },
    ],
    ["an empty body", async () => new Uint8Array(0)],
  ])("refuses %s with 400", async (_, body) => {
    await expectNotGzip(gunzip(await body(), mebibyte));
  });
});

describe("decodedBody", () => {
  it.each(["gzip", "x-gzip", " GZip "])("decompresses Content-Encoding %j", async (encoding) => {
    const body = await decodedBody(post(await gzip("cpu value=1"), encoding), mebibyte);
    expect(new TextDecoder().decode(body)).toBe("cpu value=1");
  });

  it.each([undefined, "", "identity"])("takes Content-Encoding %j as it is", async (encoding) => {
    const bytes = encoder.encode("cpu value=1");
    expect(await decodedBody(post(bytes, encoding), 11)).toEqual(bytes);
  });

  it("refuses an uncompressed body over the limit with 413", async () => {
    await expectTooLarge(decodedBody(post(encoder.encode("cpu value=1")), 10), 10);
  });

  it("refuses a gzip bomb with 413", async () => {
    await expectTooLarge(decodedBody(post(await gzipBomb, "gzip"), mebibyte), mebibyte);
  });

  it("refuses corrupt gzip with 400", async () => {
    await expectNotGzip(decodedBody(post(encoder.encode("not gzip"), "gzip"), mebibyte));
  });

  it("refuses an encoding the route does not take with 415 naming those it takes", async () => {
    const error = await refusal(decodedBody(post(encoder.encode("x"), "br"), mebibyte));
    expect({ code: error.code, status: error.status, message: error.message }).toEqual({
      code: "unsupported-media-type",
      status: 415,
      message: 'Content-Encoding "br" is not supported here; send the body uncompressed or as gzip.',
    });
    const withSnappy = await refusal(
      decodedBody(post(encoder.encode("x"), "deflate"), mebibyte, { snappy: () => new Uint8Array() }),
    );
    expect(withSnappy.message).toBe(
      'Content-Encoding "deflate" is not supported here; send the body uncompressed or as gzip, snappy.',
    );
    const stacked = await refusal(
      decodedBody(post(encoder.encode("x"), "gzip, snappy"), mebibyte, { snappy: () => new Uint8Array() }),
    );
    expect(stacked.status).toBe(415);
  });

  it("decodes a route's own encodings with its decoders, given the body and the limit", async () => {
    const snappy = vi.fn((bytes: Uint8Array, maxBytes: number) =>
      encoder.encode(`${bytes.byteLength} bytes, at most ${maxBytes}`),
    );
    const body = await decodedBody(post(encoder.encode("abc"), "Snappy"), 1_000, { snappy });
    expect(new TextDecoder().decode(body)).toBe("3 bytes, at most 1000");
    expect(snappy).toHaveBeenCalledTimes(1);
    expect(await decodedBody(post(await gzip("plain"), "gzip"), 1_000, { snappy })).toEqual(encoder.encode("plain"));
    expect(snappy).toHaveBeenCalledTimes(1);
  });

  it("passes on a decoder's refusal", async () => {
    const tooLarge = () => {
      throw decompressedTooLarge(5);
    };
    await expectTooLarge(decodedBody(post(encoder.encode("abc"), "snappy"), 5, { snappy: tooLarge }), 5);
  });
});
