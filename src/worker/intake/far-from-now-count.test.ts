import { describe, expect, it } from "vitest";
import type { Datum } from "../vocabulary/datum";
import { farFromNow } from "./far-from-now-count";

const now = Date.UTC(2026, 5, 1);
const stamped = (timestamp: number): Datum => ({ id: "d", metric: "m", timestamp, value: 1, resourceId: "vm1" });

describe("farFromNow", () => {
  it("counts the data stamped before 2000 or more than a day ahead", () => {
    const data = [now, 1_780_000_000, now - 3_600_000, now * 1_000, Date.UTC(2000, 0, 1)].map(stamped);
    expect(farFromNow(data, now)).toBe(2);
  });

  it("counts none of no data", () => {
    expect(farFromNow([], now)).toBe(0);
  });
});
