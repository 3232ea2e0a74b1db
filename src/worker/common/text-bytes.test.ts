import { describe, expect, it } from "vitest";
import { bytesWithTexts, textsAt, utf8Length, utf8Texts, utf16Texts } from "./text-bytes";

const encoder = new TextEncoder();

describe("utf8Length", () => {
  it("counts one to four bytes per character as UTF-8 does", () => {
    const samples = [
      "",
      "abc",
      "é",
      "\u07ff",
      "\u0800",
      "€",
      "\ud7ff",
      "\ue000",
      "\uffff",
      "𝄞",
      "aé€𝄞",
      "température 😀",
    ];
    expect(samples.map(utf8Length)).toEqual([0, 3, 2, 2, 3, 3, 3, 3, 3, 4, 10, 17]);
    expect(samples.map(utf8Length)).toEqual(samples.map((sample) => encoder.encode(sample).length));
  });
});

describe("bytesWithTexts and textsAt", () => {
  it("writes texts after the bytes before them, as UTF-8, and reads them back", () => {
    for (const text of ["", "cpu,vm1", "température 😀"]) {
      const { bytes, encoding, textBytes } = bytesWithTexts(3, text);
      expect([encoding, textBytes, bytes.length]).toEqual([utf8Texts, utf8Length(text), 3 + utf8Length(text)]);
      expect(textsAt(bytes, 3, textBytes, encoding)).toBe(text);
    }
  });

  it("writes a text with an unpaired surrogate as UTF-16 code units, which read back whole", () => {
    const text = "vm\ud800é";
    const { bytes, encoding, textBytes } = bytesWithTexts(1, text);
    expect([encoding, textBytes]).toEqual([utf16Texts, 2 * text.length]);
    expect(textsAt(bytes, 1, textBytes, encoding)).toBe(text);
  });

  it("finds UTF-8 texts that are not UTF-8", () => {
    expect(textsAt(new Uint8Array([0x61, 0xff]), 0, 2, utf8Texts)).toBeUndefined();
  });
});
