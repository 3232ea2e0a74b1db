import { describe, expect, it } from "vitest";
import { didYouMean, nearMiss } from "./near-miss.ts";

describe("nearMiss", () => {
  it.each([
    ["limt", ["limit"], "limit"],
    ["fromat", ["format", "protocol"], "format"],
    ["Limit", ["limit"], "limit"],
    ["limits", ["limit"], "limit"],
    ["callbackURL", ["callbackUrl", "observerHost"], "callbackUrl"],
    ["enabeld", ["enabled"], "enabled"],
  ])("takes %o for %o", (name, known, meant) => {
    expect(nearMiss(name, known)).toBe(meant);
  });

  it.each([
    ["a name far from every known one", "colour", ["description", "unit"]],
    ["a short name, which two edits would make any other", "to", ["tz"]],
    ["no known names", "limit", []],
  ])("suggests nothing for %s", (_case, name, known) => {
    expect(nearMiss(name, known)).toBeUndefined();
  });

  it("takes the closest of several", () => {
    expect(nearMiss("stat", ["state", "status"])).toBe("state");
  });
});

describe("didYouMean", () => {
  it("names the name probably meant, quoted, or says nothing", () => {
    expect(didYouMean("node_load_1", ["node_load1", "node_load5"])).toBe('; did you mean "node_load1"?');
    expect(didYouMean("influx", ["GRAPHITE", "INFLUXDB"])).toBe('; did you mean "INFLUXDB"?');
    expect(didYouMean("colour", ["description"])).toBe("");
  });

  it("finds the one near name among many far ones", () => {
    const known = Array.from({ length: 10_000 }, (_, index) => `metric.number.${index}.of.many`);
    expect(didYouMean("metric.number.4242.of.mny", known)).toBe('; did you mean "metric.number.4242.of.many"?');
  });
});
