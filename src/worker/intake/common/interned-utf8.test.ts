import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { internedUtf8 } from "./interned-utf8";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const decode = (bytes: Uint8Array) => strict.decode(bytes);
const encoder = new TextEncoder();

describe("internedUtf8", () => {
  it("decodes what the decoder decodes, for any bytes at any place", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(), fc.nat(), (bytes, from, to) => {
        const start = bytes.length === 0 ? 0 : from % (bytes.length + 1);
        const end = start + (to % (bytes.length - start + 1));
        let expected: string | Error;
        try {
          expected = decode(bytes.subarray(start, end));
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) expect(() => internedUtf8(bytes, start, end, decode)).toThrow();
        else expect(internedUtf8(bytes, start, end, decode)).toBe(expected);
      }),
    );
  });

  it("decodes repeated bytes once, and tells apart strings whose bytes differ", () => {
    let calls = 0;
    const counting = (bytes: Uint8Array) => {
      calls++;
      return decode(bytes);
    };
    // Names no other test decodes: the table is the isolate's, which test files share.
    const name = `job-${crypto.randomUUID()}`;
    const body = encoder.encode(`${name} ${name} ${name}x`);
    const at = (index: number, length = name.length) =>
      internedUtf8(body, index * (name.length + 1), index * (name.length + 1) + length, counting);
    expect([at(0), at(1), at(2), at(2, name.length + 1)]).toEqual([name, name, name, `${name}x`]);
    expect(calls).toBe(2);
  });

  it("keeps nothing of a body once it is gone: later changes to the bytes change nothing", () => {
    const body = encoder.encode("cpu0");
    expect(internedUtf8(body, 0, 4, decode)).toBe("cpu0");
    body[3] = "1".charCodeAt(0);
    expect(internedUtf8(body, 0, 4, decode)).toBe("cpu1");
    body[3] = "0".charCodeAt(0);
    expect(internedUtf8(body, 0, 4, decode)).toBe("cpu0");
  });

  it("stays correct past its bound, and for strings too long to keep", () => {
    for (let index = 0; index < 20_000; index++) {
      const text = `label-${index}`;
      expect(internedUtf8(encoder.encode(text), 0, text.length, decode)).toBe(text);
    }
    const long = "x".repeat(200);
    expect(internedUtf8(encoder.encode(long), 0, 200, decode)).toBe(long);
  });
});
