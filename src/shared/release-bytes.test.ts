import { describe, expect, it, vi } from "vitest";
import { releaseBytes } from "./release-bytes.ts";

/** A buffer whose runtime has `transfer` (workerd) or not (Node 20), whatever runs the test. */
function bufferWithTransfer(transfer: ((length: number) => ArrayBuffer) | undefined): ArrayBuffer {
  const buffer = new TextEncoder().encode("a body").buffer;
  Object.defineProperty(buffer, "transfer", { value: transfer });
  return buffer;
}

describe("releaseBytes", () => {
  it("detaches the buffer by transferring it to one of no bytes", () => {
    const transfer = vi.fn((_length: number) => new ArrayBuffer(0));
    releaseBytes(bufferWithTransfer(transfer));
    expect(transfer.mock.calls).toEqual([[0]]);
  });

  it("leaves the buffer to the garbage collector where the runtime cannot transfer it", () => {
    const buffer = bufferWithTransfer(undefined);
    releaseBytes(buffer);
    expect(new TextDecoder().decode(buffer)).toBe("a body");
  });

  it("leaves a shared buffer, which other threads may still read, as it is", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(4));
    shared.set([1, 2, 3, 4]);
    releaseBytes(shared.buffer);
    expect([...shared]).toEqual([1, 2, 3, 4]);
  });
});
