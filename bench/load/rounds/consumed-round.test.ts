import { describe, expect, it } from "vitest";
import { cpuPerDatum } from "./consumed-round.ts";

describe("Worker CPU per datum of consumed rounds", () => {
  it("divides the rounds' CPU time together by their data together", () => {
    const rounds = [
      { accepted: 100_000, errors: 0, cpuSeconds: 0.3 },
      { accepted: 300_000, errors: 0, cpuSeconds: 0.5 },
    ];
    expect(cpuPerDatum(rounds)).toBeCloseTo(2, 10);
    expect(cpuPerDatum(rounds.slice(0, 1))).toBeCloseTo(3, 10);
  });
});
