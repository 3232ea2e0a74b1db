import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentDatumId, metricHash, seriesHashSeed } from "./datum-id";

const idOf = (metric: string, resourceId: string, timestamp: number) =>
  agentDatumId(seriesHashSeed(resourceId), metricHash(metric), timestamp);

describe("agentDatumId", () => {
  it("is 16 lower-case hex digits", () => {
    expect(idOf("cpu.usage_idle", "vm1,cpu=cpu0", 1_700_000_000_000)).toMatch(/^[0-9a-f]{16}$/);
    expect(idOf("", "", 0)).toMatch(/^[0-9a-f]{16}$/);
  });

  // A batch resent across an upgrade must keep its ids: these were computed by the first release.
  it.each([
    ["cpu.usage_idle", "vm1,cpu=cpu0", 1_700_000_000_000, "ccf8fe3f94dfdec4"],
    ["", "", 0, "e430d377c61f84e9"],
    ["m", "vm1", -1, "464493729c0d8cbd"],
    ["mémoire", "hôte=π", 2 ** 32 + 1, "7584be5e3bb8c55b"],
    ["x", "-", Number.MIN_SAFE_INTEGER, "f3fb1cff4d2a0380"],
  ])("gives %j of %j at %d the id it has always had", (metric, resourceId, timestamp, id) => {
    expect(idOf(metric, resourceId, timestamp)).toBe(id);
  });

  it("is the same for the same datum, whatever was hashed in between", () => {
    const seed = seriesHashSeed("vm1");
    const first = agentDatumId(seed, metricHash("m"), 1_700_000_000_000);
    seriesHashSeed("another series");
    agentDatumId(seriesHashSeed("vm2"), metricHash("other"), 5);
    expect(agentDatumId(seed, metricHash("m"), 1_700_000_000_000)).toBe(first);
    expect(idOf("m", "vm1", 1_700_000_000_000)).toBe(first);
  });

  it("differs with the metric, the resourceId and the timestamp", () => {
    const base = idOf("cpu.usage", "vm1", 1_700_000_000_000);
    expect(idOf("cpu.usagf", "vm1", 1_700_000_000_000)).not.toBe(base);
    expect(idOf("cpu.usage", "vm2", 1_700_000_000_000)).not.toBe(base);
    expect(idOf("cpu.usage", "vm1", 1_700_000_000_001)).not.toBe(base);
  });

  it("keeps the metric and the resourceId apart", () => {
    expect(idOf("c", "ab", 0)).not.toBe(idOf("bc", "a", 0));
    expect(idOf("", "ab", 0)).not.toBe(idOf("ab", "", 0));
    expect(idOf("m", "vm1", 0)).not.toBe(idOf("vm1", "m", 0));
  });

  it("tells apart timestamps that share their low or high 32 bits, negative ones too", () => {
    const timestamps = [
      0,
      1,
      -1,
      2 ** 31,
      -(2 ** 31),
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 1,
      -(2 ** 32),
      -(2 ** 32) - 1,
      2 ** 33,
      1_700_000_000_000,
      1_700_000_000_000 + 2 ** 32,
      -1_700_000_000_000,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ];
    const ids = timestamps.map((timestamp) => idOf("m", "vm1", timestamp));
    expect(new Set(ids).size).toBe(timestamps.length);
  });

  it("gives thousands of distinct data distinct ids", () => {
    const datum = fc.tuple(
      fc.string({ maxLength: 6 }),
      fc.string({ maxLength: 6 }),
      fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.maxSafeInteger()),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(datum, { minLength: 2_000, maxLength: 3_000, selector: (triple) => JSON.stringify(triple) }),
        (data) => {
          const ids = new Set(data.map(([metric, resourceId, timestamp]) => idOf(metric, resourceId, timestamp)));
          expect(ids.size).toBe(data.length);
        },
      ),
      { numRuns: 10 },
    );
  });

  it("gives the data of a busy series distinct ids", () => {
    const ids = new Set<string>();
    const metrics = ["cpu.usage_idle", "cpu.usage_user", "mem.used", "disk.free"];
    for (let host = 0; host < 25; host++) {
      const seed = seriesHashSeed(`vm${host},cpu=cpu0`);
      for (const metric of metrics) {
        for (let second = 0; second < 100; second++)
          ids.add(agentDatumId(seed, metricHash(metric), 1_700_000_000_000 + second * 1_000));
      }
    }
    expect(ids.size).toBe(25 * metrics.length * 100);
  });
});
