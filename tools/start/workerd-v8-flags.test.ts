import fc from "fast-check";
import { Miniflare, serializeConfig } from "miniflare";
import { describe, expect, it } from "vitest";
import { withV8Flags } from "./workerd-v8-flags.ts";
import { workerdV8Flags, wrapWorkerd } from "./workerd-wrapper.ts";

/** A configuration as Miniflare writes one: a Worker and a socket. */
const config = serializeConfig({
  services: [{ name: "main", worker: { modules: [{ name: "main.mjs", esModule: "export default {}" }] } }],
  sockets: [{ name: "entry", address: "127.0.0.1:0", service: { name: "main" } }],
});

/** The texts of the list that the root struct's third pointer points to, read independently. */
function readV8Flags(message: Uint8Array): string[] {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const segments = view.getUint32(0, true) + 1;
  const base = Math.ceil((4 + 4 * segments) / 8) * 8;
  const word = (index: number) => view.getBigUint64(base + index * 8, true);
  const target = (at: number) => at + 1 + Number(BigInt.asIntN(30, (word(at) >> 2n) & 0x3fffffffn));
  const root = word(0);
  const slot = target(0) + Number((root >> 32n) & 0xffffn) + 2;
  if (word(slot) === 0n) return [];
  const list = target(slot);
  const count = Number(word(slot) >> 35n);
  return Array.from({ length: count }, (_, index) => {
    const length = Number(word(list + index) >> 35n);
    const start = base + target(list + index) * 8;
    expect(message[start + length - 1], "a text ends with NUL").toBe(0);
    return new TextDecoder().decode(message.subarray(start, start + length - 1));
  });
}

describe("withV8Flags", () => {
  it("adds the flags as the configuration's v8Flags, leaving the rest of the message as it was", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", minLength: 1 }), { minLength: 1, maxLength: 8 }), (flags) => {
        const patched = withV8Flags(config, flags);
        expect(readV8Flags(patched)).toEqual(flags);
        expect(readV8Flags(config)).toEqual([]);
        // Only the first segment's size in the header and the one pointer change before what is appended.
        const unchanged = (message: Uint8Array) => [...message.subarray(8, config.length)];
        const differences = unchanged(patched).filter((byte, index) => byte !== unchanged(config)[index]).length;
        expect(differences).toBeLessThanOrEqual(8);
      }),
    );
  });

  it("carries later segments over byte for byte, after the grown first one", () => {
    // Two segments: Miniflare's single one, and one of arbitrary words that nothing points to.
    const firstWords = new DataView(config.buffer, config.byteOffset).getUint32(4, true);
    const later = Uint8Array.from({ length: 24 }, (_, index) => index + 1);
    const twoSegments = new Uint8Array(16 + firstWords * 8 + later.length);
    const header = new DataView(twoSegments.buffer);
    header.setUint32(0, 1, true);
    header.setUint32(4, firstWords, true);
    header.setUint32(8, later.length / 8, true);
    twoSegments.set(config.subarray(8, 8 + firstWords * 8), 16);
    twoSegments.set(later, 16 + firstWords * 8);

    const patched = withV8Flags(twoSegments, ["--expose-gc"]);
    const patchedHeader = new DataView(patched.buffer, patched.byteOffset);
    expect(patchedHeader.getUint32(0, true)).toBe(1);
    expect(patchedHeader.getUint32(8, true)).toBe(later.length / 8);
    expect([...patched.subarray(patched.length - later.length)]).toEqual([...later]);
    expect(readV8Flags(patched)).toEqual(["--expose-gc"]);
  });

  it("returns the configuration itself when there are no flags, and refuses one that has some", () => {
    expect(withV8Flags(config, [])).toBe(config);
    expect(() => withV8Flags(withV8Flags(config, ["--a"]), ["--b"])).toThrow("has V8 flags");
  });

  it("gives workerd the flags through the wrapper: its isolates have gc() with them, and not without", async () => {
    const gcInWorkerd = async () => {
      const miniflare = new Miniflare({
        modules: true,
        script: "export default { fetch: () => new Response(typeof gc) }",
      });
      try {
        return await (await miniflare.dispatchFetch("http://worker/")).text();
      } finally {
        await miniflare.dispose();
      }
    };
    wrapWorkerd();
    expect(process.env.TOWER_WORKERD_V8_FLAGS).toBe(workerdV8Flags.join(" "));
    expect(await gcInWorkerd()).toBe("function");
    process.env.TOWER_WORKERD_V8_FLAGS = "";
    expect(await gcInWorkerd()).toBe("undefined");
    wrapWorkerd();
  });
});
