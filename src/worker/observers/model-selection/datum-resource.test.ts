import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seriesResourceId } from "../../intake/common/series-data";
import type { Label } from "../../vocabulary/datum";
import { datumResource } from "./datum-resource";

/** Texts rich in what a resourceId's key escapes. */
const keyText = fc.string({ unit: fc.constantFrom("\\", ",", "=", " ", "a", "b", "é", "-"), maxLength: 12 });

/** The resourceId intake builds of `pairs` with `primary` as the primary label (if present). */
function resourceIdOf(pairs: readonly Label[], primary: string): string {
  const series = { labels: pairs, origin: 1, points: [] };
  return seriesResourceId(series, { primary: [primary], drop: new Set(), maxMetricNameLength: 64 });
}

describe("datumResource", () => {
  it("is the resourceId of data without labels", () => {
    expect(datumResource("vm1,cpu=0", false)).toBe("vm1,cpu=0");
    expect(datumResource("a\\,b", false)).toBe("a\\,b");
    expect(datumResource("-", false)).toBe("-");
  });

  it("is none for an agent's datum without a primary label", () => {
    expect(datumResource("cpu=0,mode=idle", true)).toBeUndefined();
    expect(datumResource("-", true)).toBeUndefined();
  });

  it("is none for every resourceId intake builds without a primary label", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(keyText, keyText), { selector: ([name]) => name, maxLength: 4 }), (pairs) => {
        expect(datumResource(resourceIdOf(pairs, "absent"), true)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("is the primary label's value, unescaped, for an agent's datum with one", () => {
    expect(datumResource("vm1", true)).toBe("vm1");
    expect(datumResource("vm1,cpu=0", true)).toBe("vm1");
    expect(datumResource("web\\ 1\\,eu\\=\\\\,cpu=0", true)).toBe("web 1,eu=\\");
  });

  it("reads back the primary label's value from every resourceId intake builds with it", () => {
    fc.assert(
      fc.property(
        keyText,
        fc.uniqueArray(fc.tuple(keyText, keyText), { selector: ([name]) => name, maxLength: 4 }),
        (primaryValue, others) => {
          const pairs: Label[] = [["primary", primaryValue], ...others.filter(([name]) => name !== "primary")];
          // A primary label alone whose value is empty or `-` makes the key `-`, the key of no labels at all.
          fc.pre(pairs.length > 1 || (primaryValue !== "" && primaryValue !== "-"));
          const resourceId = resourceIdOf(pairs, "primary");
          expect(datumResource(resourceId, true)).toBe(primaryValue);
        },
      ),
      { numRuns: 500 },
    );
  });
});
