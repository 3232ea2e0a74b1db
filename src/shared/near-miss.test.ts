import { describe, expect, it } from "vitest";
import { nearMiss } from "./near-miss.ts";

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
