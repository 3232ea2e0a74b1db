import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LinePrecision, timestampMilliseconds } from "./timestamp";

const read = (text: string, precision: LinePrecision) => timestampMilliseconds(text, 0, text.length, precision);

const nanosecondsPer: Record<LinePrecision, bigint> = {
  ns: 1n,
  us: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const precisions = Object.keys(nanosecondsPer) as LinePrecision[];
const int64Bound = 2n ** 63n;

/** Milliseconds rounded down, in exact arithmetic. */
function floorMilliseconds(nanoseconds: bigint): number {
  const whole = nanoseconds / 1_000_000n;
  return Number(nanoseconds % 1_000_000n < 0n ? whole - 1n : whole);
}

describe("timestampMilliseconds", () => {
  it("keeps every digit of a 19-digit nanosecond timestamp", () => {
    expect(read("1700000000123456789", "ns")).toBe(1_700_000_000_123);
    expect(read("1700000000999999999", "ns")).toBe(1_700_000_000_999);
  });

  it.each([
    ["1700000000123456", "us", 1_700_000_000_123],
    ["1700000000123", "ms", 1_700_000_000_123],
    ["1700000000", "s", 1_700_000_000_000],
    ["28333333", "m", 1_699_999_980_000],
    ["472222", "h", 1_699_999_200_000],
    ["0", "ns", 0],
    ["999999", "ns", 0],
    ["1000000", "ns", 1],
    ["000001700000000", "s", 1_700_000_000_000],
  ] as const)("reads %s %s as %d ms", (text, precision, milliseconds) => {
    expect(read(text, precision)).toBe(milliseconds);
  });

  it("rounds a time before 1970 down", () => {
    expect(read("-1", "ns")).toBe(-1);
    expect(read("-999999", "ns")).toBe(-1);
    expect(read("-1000000", "ns")).toBe(-1);
    expect(read("-1000001", "ns")).toBe(-2);
    expect(read("-1", "us")).toBe(-1);
    expect(read("-1500", "us")).toBe(-2);
    expect(read("-5", "s")).toBe(-5_000);
  });

  it("reads -0 as 0, not the double -0", () => {
    expect(read("-0", "ns")).toBe(0);
    expect(read("-000", "s")).toBe(0);
  });

  it.each(precisions)("accepts in %s exactly the times whose nanoseconds fit 64 bits", (precision) => {
    const per = nanosecondsPer[precision];
    const largest = (int64Bound - 1n) / per;
    const smallest = -(int64Bound / per);
    expect(read(String(largest), precision)).toBe(floorMilliseconds(largest * per));
    expect(read(String(smallest), precision)).toBe(floorMilliseconds(smallest * per));
    expect(read(String(largest + 1n), precision)).toBe("out of range");
    expect(read(String(smallest - 1n), precision)).toBe("out of range");
  });

  it("stays within a JavaScript Date's range", () => {
    for (const precision of precisions) {
      const largest = read(String((int64Bound - 1n) / nanosecondsPer[precision]), precision) as number;
      expect(new Date(largest).getTime()).toBe(largest);
      expect(new Date(-largest).getTime()).toBe(-largest);
    }
  });

  it.each(["", "-", "--1", "1-2", "12-", "1.5", "+1", "1e9"])("refuses %j", (text) => {
    expect(read(text, "ns")).toBe("invalid");
  });

  it("agrees with exact arithmetic for any time in any precision", () => {
    const precision = fc.constantFrom(...precisions);
    const time = precision.chain((chosen) =>
      fc.tuple(
        fc.constant(chosen),
        fc.bigInt({ min: -(int64Bound / nanosecondsPer[chosen]), max: (int64Bound - 1n) / nanosecondsPer[chosen] }),
      ),
    );
    fc.assert(
      fc.property(time, ([chosen, value]) => {
        expect(read(String(value), chosen)).toBe(floorMilliseconds(value * nanosecondsPer[chosen]));
      }),
    );
  });

  it("reads a timestamp inside a longer text", () => {
    expect(timestampMilliseconds("m v=1 1700000000123456789\n", 6, 25, "ns")).toBe(1_700_000_000_123);
  });
});
