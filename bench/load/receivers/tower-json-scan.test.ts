import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanTowerJson } from "./tower-json-scan.ts";

const element = (resourceId: string, metric: string, value: unknown) => ({ resourceId, metric, value, timestamp: 7 });

describe("scanTowerJson", () => {
  it("reads the elements of a payload as the service writes it", () => {
    const text = JSON.stringify([element("r1", "m", 1), element("probe", "m", -2.5e-7)]);
    expect(scanTowerJson(text)).toEqual([
      { resourceId: "r1", metric: "m", value: 1 },
      { resourceId: "probe", metric: "m", value: -2.5e-7 },
    ]);
    expect(scanTowerJson("[]")).toEqual([]);
  });

  it("reads whole numbers of any length, and numbers with a fraction or an exponent", () => {
    for (const value of [0, 7, 1_795_890_000_000, 2 ** 53 + 2, 1e300, -0.5, 3.25e-9]) {
      expect(scanTowerJson(JSON.stringify([element("r", "m", value)]))?.[0]?.value).toBe(value);
    }
  });

  it("reads the keys in any order", () => {
    expect(scanTowerJson('[{"value":3,"metric":"m","timestamp":1,"resourceId":"r"}]')).toEqual([
      { resourceId: "r", metric: "m", value: 3 },
    ]);
  });

  it("leaves to JSON.parse what is not in the plain shape", () => {
    for (const text of [
      "",
      "{}",
      '[{"resourceId":"r","metric":"m","value":null,"timestamp":1}]',
      '[{"resourceId":"r","metric":"m","value":"1","timestamp":1}]',
      '[{"resourceId":"r\\"","metric":"m","value":1,"timestamp":1}]',
      '[{"resourceId":"r","metric":"m","timestamp":1}]',
      '[{"resourceId":"r","metric":"m","value":1,"nested":{"a":1}}]',
      '[{"resourceId":"r","metric":"m","value":1} ]',
      '[{"resourceId":"r","metric":"m","value":1};{"resourceId":"r","metric":"m","value":1}]',
      '[ {"resourceId":"r","metric":"m","value":1}]',
      '[{"resourceId":"r","metric":"m","value":Infinity}]',
      '[{"resourceId":"r","metric":"m","value":0x10}]',
      '[{"resourceId":"r","metric":"m","value":01}]',
      '[{"resourceId":"r","metric":"m","value":}]',
    ]) {
      expect(scanTowerJson(text), text).toBeUndefined();
    }
  });

  it("agrees with JSON.parse on every payload it reads", () => {
    const value = fc.oneof(fc.double(), fc.integer(), fc.constant(null), fc.string());
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string(), value)), (elements) => {
        const parsed = elements.map(([resourceId, metric, each]) => element(resourceId, metric, each));
        const text = JSON.stringify(parsed);
        const scanned = scanTowerJson(text);
        if (scanned === undefined) return;
        expect(scanned).toEqual(
          (JSON.parse(text) as ReturnType<typeof element>[]).map(({ resourceId, metric, value }) => ({
            resourceId,
            metric,
            value,
          })),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads every payload of plain strings and finite numbers", () => {
    // Strings JSON writes without an escape, holding no brace.
    const plain = fc.string().filter((text) => JSON.stringify(text) === `"${text}"` && !/[{}]/.test(text));
    fc.assert(
      fc.property(fc.array(fc.tuple(plain, plain, fc.double({ noNaN: true, noDefaultInfinity: true }))), (elements) => {
        const text = JSON.stringify(elements.map(([resourceId, metric, value]) => element(resourceId, metric, value)));
        expect(scanTowerJson(text)).toHaveLength(elements.length);
      }),
    );
  });
});
