import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BytesTable } from "./bytes-table";

describe("BytesTable", () => {
  it("finds a value kept for the same bytes anywhere, and none for other bytes", () => {
    const table = new BytesTable<string>(16, 64);
    const bytes = new TextEncoder().encode("ab ab abc");
    expect(table.find(bytes, 0, 2)).toBeUndefined();
    table.keep(bytes, 0, 2, "ab");
    expect(table.find(bytes, 3, 5)).toBe("ab");
    expect(table.find(bytes, 6, 9)).toBeUndefined();
    expect(table.find(bytes, 6, 8)).toBe("ab");
  });

  it("finds what was kept for any bytes, or nothing, never another value", () => {
    const table = new BytesTable<string>(8, 4);
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 40 }), (all) => {
        for (const bytes of all) {
          const found = table.find(bytes, 0, bytes.length);
          if (found !== undefined) expect(found).toBe(bytes.join());
          table.keep(bytes, 0, bytes.length, bytes.join());
          expect(table.find(bytes, 0, bytes.length)).toBe(bytes.length > 4 ? undefined : bytes.join());
        }
      }),
    );
  });

  it("keeps a copy: later changes to the bytes change nothing", () => {
    const table = new BytesTable<string>(16, 64);
    const bytes = new TextEncoder().encode("cpu0");
    table.keep(bytes, 0, 4, "cpu0");
    bytes[3] = "1".charCodeAt(0);
    expect(table.find(bytes, 0, 4)).toBeUndefined();
    bytes[3] = "0".charCodeAt(0);
    expect(table.find(bytes, 0, 4)).toBe("cpu0");
  });

  it("keeps only frozen values, which those it is found for share", () => {
    const table = new BytesTable<{ made: number }>(16, 64);
    const bytes = Uint8Array.of(1, 2);
    table.keep(bytes, 0, 2, { made: 1 });
    expect(table.find(bytes, 0, 2)).toBeUndefined();
    const frozen = Object.freeze({ made: 2 });
    table.keep(bytes, 0, 2, frozen);
    expect(table.find(bytes, 0, 2)).toBe(frozen);
  });

  it("starts again empty past its bound", () => {
    const table = new BytesTable<string>(2, 64);
    for (const byte of [1, 2, 3]) table.keep(Uint8Array.of(byte), 0, 1, String(byte));
    expect([1, 2, 3].map((byte) => table.find(Uint8Array.of(byte), 0, 1))).toEqual([undefined, undefined, "3"]);
  });
});
