import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldType, fieldValue } from "./field-value";

const read = (token: string) => fieldValue(token, 0, token.length);

describe("floats", () => {
  it.each([
    ["1", 1],
    ["-1", -1],
    ["1.5", 1.5],
    ["1.", 1],
    [".5", 0.5],
    ["-.5", -0.5],
    ["007.25", 7.25],
    ["1e3", 1000],
    ["1E3", 1000],
    ["1e+3", 1000],
    ["1.e3", 1000],
    [".5e1", 5],
    ["25e-2", 0.25],
    ["0.1", 0.1],
    ["97.79338014186536", 97.79338014186536],
    ["0.10030090270812438", 0.10030090270812438],
    ["123456789012345678901234567890", 1.2345678901234568e29],
    ["1e308", 1e308],
    ["1.7976931348623157e308", Number.MAX_VALUE],
    ["-1.7976931348623157e308", -Number.MAX_VALUE],
    ["5e-324", Number.MIN_VALUE],
    ["1e-400", 0],
    ["0.000000000000000000000000000001", 1e-30],
    ["1e00000000000000000000000000001", 10],
  ])("reads %s as %d", (token, value) => {
    expect(read(token)).toBe(value);
  });

  it("keeps the sign of a negative zero", () => {
    expect(read("-0")).toBe(-0);
    expect(read("-0.0e5")).toBe(-0);
    expect(read("0")).toBe(0);
  });

  it.each(["1e309", "-1e309", "1.8e308", "1e99999999999999999999"])("finds %s out of range", (token) => {
    expect(read(token)).toBe("number out of range");
  });

  it.each([
    "-",
    ".",
    "-.",
    "1e",
    "1e+",
    "1e-",
    ".e5",
    "1.2.3",
    "1.5x",
    "--1",
    "1-",
    "1_000",
    "0x1p3",
    "-inf",
    "-Infinity",
    "-nan",
    "1e5.0",
    "1 ",
  ])("refuses %j", (token) => {
    expect(read(token)).toBe("invalid number");
  });

  it("reads what JavaScript writes, for every double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(read(String(value))).toBe(value === 0 ? 0 : value);
        expect(read(value.toExponential())).toBe(value === 0 ? 0 : value);
      }),
    );
  });

  it("rounds any decimal as Number() does", () => {
    const decimal = fc
      .tuple(
        fc.constantFrom("", "-"),
        fc.stringMatching(/^[0-9]{0,20}$/),
        fc.stringMatching(/^[0-9]{1,20}$/),
        fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 400 }))),
      )
      .map(([sign, whole, fraction, exponent]) => `${sign}${whole}.${fraction}${exponent ? exponent.join("") : ""}`);
    fc.assert(
      fc.property(decimal, (token) => {
        const expected = Number(token);
        expect(read(token)).toBe(Number.isFinite(expected) ? expected : "number out of range");
      }),
    );
  });
});

describe("integers", () => {
  it.each([
    ["0i", 0],
    ["42i", 42],
    ["-42i", -42],
    ["007i", 7],
    ["9007199254740993i", 9_007_199_254_740_992],
    ["9223372036854775807i", 2 ** 63],
    ["-9223372036854775808i", -(2 ** 63)],
  ])("reads %s as %d", (token, value) => {
    expect(read(token)).toBe(value);
  });

  it("reads -0i as the integer 0, not the double -0", () => {
    expect(read("-0i")).toBe(0);
  });

  it.each(["9223372036854775808i", "-9223372036854775809i", "99999999999999999999i"])(
    "finds %s out of range",
    (token) => {
      expect(read(token)).toBe("integer out of range");
    },
  );

  it.each(["-i", "1.5i", "1e3i", "--1i", "1-i", "0x10i", "1ii"])("refuses %j", (token) => {
    expect(read(token)).toBe("invalid integer");
  });

  it("reads every 64-bit integer as the nearest double", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (value) => {
        expect(read(`${value}i`)).toBe(Number(value));
      }),
    );
  });
});

describe("unsigned integers", () => {
  it.each([
    ["0u", 0],
    ["42u", 42],
    ["9007199254740993u", 9_007_199_254_740_992],
    ["18446744073709551615u", 2 ** 64],
  ])("reads %s as %d", (token, value) => {
    expect(read(token)).toBe(value);
  });

  it("finds 2^64 out of range", () => {
    expect(read("18446744073709551616u")).toBe("unsigned integer out of range");
  });

  it.each(["-1u", "-0u", "1.5u", "u1u", "1uu"])("refuses %j", (token) => {
    expect(read(token)).toBe(token.startsWith("u") ? "unknown value type" : "invalid unsigned integer");
  });

  it("reads every unsigned 64-bit integer as the nearest double", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (value) => {
        expect(read(`${value}u`)).toBe(Number(value));
      }),
    );
  });
});

describe("booleans", () => {
  it.each(["t", "T", "true", "True", "TRUE"])("reads %s as 1", (token) => {
    expect(read(token)).toBe(1);
  });

  it.each(["f", "F", "false", "False", "FALSE"])("reads %s as 0", (token) => {
    expect(read(token)).toBe(0);
  });

  it.each(["tRUE", "tru", "truee", "fa", "Fals", "fALSE", "t1"])("refuses %j", (token) => {
    expect(read(token)).toBe("invalid boolean");
  });
});

describe("values of no type", () => {
  it.each(["NaN", "nan", "Inf", "+Inf", "+1", "abc", "yes", "\u0001", "é"])("refuses %j", (token) => {
    expect(read(token)).toBe("unknown value type");
  });
});

it("reads a value inside a longer text", () => {
  expect(fieldValue("a=12i,b=1", 2, 5)).toBe(12);
  expect(fieldValue("x=-1.5 123", 2, 6)).toBe(-1.5);
});

describe("fieldType", () => {
  it.each([
    ["1.5", "float"],
    ["-0", "float"],
    [".5e3", "float"],
    ["-2i", "integer"],
    ["3u", "unsigned"],
    ["t", "boolean"],
    ["FALSE", "boolean"],
    ["True", "boolean"],
    ["+1", "unknown value type"],
    ["abc", "unknown value type"],
  ])("tells %j is written as %s", (token, type) => {
    expect(fieldType(token, 0, token.length)).toBe(type);
  });

  it("is the type fieldValue reads a value as, invalid values included", () => {
    expect(fieldValue("tx", 0, 2, fieldType("tx", 0, 2))).toBe("invalid boolean");
    expect(fieldValue("1.5i", 0, 4, fieldType("1.5i", 0, 4))).toBe("invalid integer");
    expect(fieldValue("-1u", 0, 3, fieldType("-1u", 0, 3))).toBe("invalid unsigned integer");
    expect(fieldValue("-1u", 0, 3, "float")).toBe("invalid number");
  });
});
