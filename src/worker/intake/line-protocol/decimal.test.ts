import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digitsValue, integerDigits } from "./decimal";

const maxInt64 = "9223372036854775807";
const minInt64Magnitude = "9223372036854775808";

const signed = (text: string) => integerDigits(text, 0, text.length, maxInt64, minInt64Magnitude);
const unsigned = (text: string) => integerDigits(text, 0, text.length, maxInt64);

describe("integerDigits", () => {
  it("finds the first significant digit, past a minus and leading zeros", () => {
    expect(signed("42")).toBe(0);
    expect(signed("-42")).toBe(1);
    expect(signed("00042")).toBe(3);
    expect(signed("-0042")).toBe(3);
  });

  it("points past the end for zero", () => {
    expect(signed("0")).toBe(1);
    expect(signed("000")).toBe(3);
    expect(signed("-0")).toBe(2);
  });

  it("reads a slice of a longer text", () => {
    expect(integerDigits("t=-17 x", 2, 5, maxInt64, minInt64Magnitude)).toBe(3);
  });

  it.each(["", "-", "--1", "1-", "+1", "1.5", "1e3", " 1", "1 ", "٣"])("refuses %j", (text) => {
    expect(signed(text)).toBe("invalid");
  });

  it("refuses a minus where no negative limit is given", () => {
    expect(unsigned("-1")).toBe("invalid");
    expect(unsigned("-0")).toBe("invalid");
  });

  it("accepts the limits themselves, whatever the leading zeros", () => {
    expect(signed(maxInt64)).toBe(0);
    expect(signed(`-${minInt64Magnitude}`)).toBe(1);
    expect(signed(`000${maxInt64}`)).toBe(3);
  });

  it.each([
    "9223372036854775808",
    "9300000000000000000",
    "10000000000000000000",
    "-9223372036854775809",
    "-10000000000000000000",
  ])("finds %s out of range", (text) => {
    expect(signed(text)).toBe("out of range");
  });

  it("agrees with BigInt on every 64-bit bound", () => {
    const bound = 2n ** 63n;
    fc.assert(
      fc.property(fc.bigInt({ min: -2n * bound, max: 2n * bound }), (value) => {
        const inRange = value >= -bound && value < bound;
        expect(typeof signed(String(value))).toBe(inRange ? "number" : "string");
      }),
    );
  });
});

describe("digitsValue", () => {
  it("reads up to 15 digits exactly", () => {
    expect(digitsValue("999999999999999", 0, 15)).toBe(999_999_999_999_999);
    expect(digitsValue("x1234y", 1, 5)).toBe(1234);
    expect(digitsValue("", 0, 0)).toBe(0);
  });

  it("reads longer runs as the nearest double", () => {
    expect(digitsValue("9007199254740993", 0, 16)).toBe(9_007_199_254_740_992);
    expect(digitsValue("18446744073709551615", 0, 20)).toBe(2 ** 64);
  });

  it("agrees with Number() on any run of digits", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,25}$/), (digits) => {
        expect(digitsValue(digits, 0, digits.length)).toBe(Number(digits));
      }),
    );
  });
});
