import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attributeLabels, attributeText, numberText } from "./attribute-text";

describe("numberText", () => {
  it.each([
    [0.5, "0.5"],
    [1, "1"],
    [-0, "0"],
    [0.1 + 0.2, "0.30000000000000004"],
    [1e21, "1e+21"],
    [1e-7, "1e-7"],
    [Infinity, "+Inf"],
    [-Infinity, "-Inf"],
    [Number.NaN, "NaN"],
  ])("writes %d as %s", (value, text) => {
    expect(numberText(value)).toBe(text);
  });

  it("writes every finite double so that it reads back the same", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(Number(numberText(value))).toBe(Object.is(value, -0) ? 0 : value);
      }),
    );
  });
});

describe("attributeText", () => {
  it.each([
    ["a string as it is", "a, b=c", "a, b=c"],
    ["true", true, "true"],
    ["false", false, "false"],
    ["an integer in decimal, exactly", -9_223_372_036_854_775_808n, "-9223372036854775808"],
    ["a double", 2.5, "2.5"],
    ["no value", undefined, ""],
    ["bytes in base64", Uint8Array.of(0, 1, 2, 255), "AAEC/w=="],
    [
      "an array as JSON",
      ["a", 1n, 0.5, true, undefined, Uint8Array.of(1), Number.NaN],
      '["a",1,0.5,true,null,"AQ==","NaN"]',
    ],
    [
      "a kvlist as JSON, keys in order, repeated ones kept",
      {
        keyValues: [
          ["z", 'quote " and \\'],
          ["a", { keyValues: [] }],
          ["z", [[Infinity]]],
        ],
      },
      '{"z":"quote \\" and \\\\","a":{},"z":[["+Inf"]]}',
    ],
  ] as const)("writes %s", (_, value, text) => {
    expect(attributeText(value)).toBe(text);
  });

  it("writes bytes of any length in base64", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8_000, maxLength: 20_000 }), (bytes) => {
        let binary = "";
        for (const byte of bytes) binary += String.fromCharCode(byte);
        expect(attributeText(bytes)).toBe(btoa(binary));
      }),
      { numRuns: 20 },
    );
  });
});

describe("attributeLabels", () => {
  it("renders each attribute's value, in order", () => {
    expect(
      attributeLabels([
        ["b", 1n],
        ["a", "x"],
      ]),
    ).toEqual([
      ["b", "1"],
      ["a", "x"],
    ]);
  });

  it("gives attributes whose values are all strings as they are, frozen ones too", () => {
    const strings = Object.freeze([["a", "x"] as const, ["b", ""] as const]);
    expect(attributeLabels(strings)).toBe(strings);
    expect(attributeLabels([])).toEqual([]);
  });
});
