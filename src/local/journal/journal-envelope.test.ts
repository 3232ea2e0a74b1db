import { describe, expect, it } from "vitest";
import { isJournalEnvelope, journaledBytes } from "./journal-envelope";

describe("isJournalEnvelope", () => {
  it("tells an envelope from the Worker's own bodies", () => {
    expect(isJournalEnvelope({ journalEntry: [0, "s/0"], body: new Uint8Array(1) })).toBe(true);
    for (const body of [new Uint8Array(1), new ArrayBuffer(1), "text", null, { body: new Uint8Array(1) }]) {
      expect(isJournalEnvelope(body)).toBe(false);
    }
  });
});

describe("journaledBytes", () => {
  it("takes bytes, in a view or a buffer, and refuses anything else", () => {
    expect(journaledBytes(Uint8Array.of(1, 2))).toEqual(Uint8Array.of(1, 2));
    expect(journaledBytes(Uint8Array.of(3).buffer)).toEqual(Uint8Array.of(3));
    expect(() => journaledBytes({})).toThrow("the intake journal keeps message bodies of bytes, not of type object");
  });
});
