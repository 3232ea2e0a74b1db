import { describe, expect, it } from "vitest";
import { followedMetrics, followedNamesKey } from "./followed-metrics";

describe("followedMetrics", () => {
  const names = ["cpu.user", "cpu.system", "node_load1", "up"];

  it("counts the names the selectors can match; every name for an observer that selects through the model", () => {
    expect(followedMetrics(['{__name__=~"cpu\\\\..*"}'], names)).toBe(2);
    expect(followedMetrics(["up", "node_load1"], names)).toBe(2);
    expect(followedMetrics(undefined, names)).toBe(4);
  });

  it("counts again once the names changed", () => {
    const match = ['{__name__=~"fm_.*"}'];
    expect(followedMetrics(match, ["fm_a"])).toBe(1);
    expect(followedMetrics(match, ["fm_a", "fm_b"])).toBe(2);
    expect(followedMetrics(match, ["fm_b"])).toBe(1);
  });

  it("keys a set of names by all of them, not by their number alone", () => {
    expect(followedNamesKey(["a", "b"])).not.toBe(followedNamesKey(["a", "c"]));
    expect(followedNamesKey(["a", "b"])).toBe(followedNamesKey(["a", "b"]));
  });
});
