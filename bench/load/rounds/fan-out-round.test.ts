import { describe, expect, it } from "vitest";
import {
  combinedRounds,
  cpuPerDelivery,
  type FanOutFigures,
  kernelPerDelivery,
  lost,
  steadyRate,
  wholeCaseRate,
} from "./fan-out-round.ts";

const round = (changes: Partial<FanOutFigures>): FanOutFigures => ({
  accepted: 300_000,
  refused: 0,
  delivered: 300_000,
  duplicates: 0,
  unreadable: 0,
  steadyData: 240_000,
  steadySeconds: 2,
  caseSeconds: 3,
  cpu: { worker: 1.2, relay: 0, bench: 0.3 },
  workerKernel: 0.15,
  ...changes,
});

describe("a fan-out case's rounds", () => {
  it("are summed into one", () => {
    const both = combinedRounds([round({}), round({ delivered: 299_000, steadySeconds: 4 })]);
    expect(both).toMatchObject({ accepted: 600_000, delivered: 599_000, steadyData: 480_000, steadySeconds: 6 });
    expect(both.cpu.worker).toBeCloseTo(2.4, 10);
    expect(lost(both)).toBe(1_000);
    expect(steadyRate(both)).toBe(80_000);
    expect(wholeCaseRate(both)).toBeCloseTo(599_000 / 6, 6);
    expect(cpuPerDelivery(both)).toBeCloseTo(4, 10);
    expect(kernelPerDelivery(both)).toBeCloseTo(0.5, 10);
  });
});
