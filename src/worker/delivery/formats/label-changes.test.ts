import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Label } from "../../vocabulary/datum";
import { labelChanger } from "./label-changes";

const pairs: Label[] = [
  ["host", "vm1"],
  ["job", "node"],
  ["zone", "eu"],
];

describe("labelChanger", () => {
  it("gives the label set itself without changes", () => {
    for (const changes of [undefined, {}, { add: {}, drop: [] }]) {
      expect(labelChanger(changes)(pairs)).toBe(pairs);
    }
  });

  it("adds labels, over a label of the same name, sorted by name", () => {
    expect(labelChanger({ add: { env: "prod", job: "edge" } })(pairs)).toEqual([
      ["env", "prod"],
      ["host", "vm1"],
      ["job", "edge"],
      ["zone", "eu"],
    ]);
  });

  it("drops labels, also one it would add", () => {
    expect(labelChanger({ drop: ["job", "absent"] })(pairs)).toEqual([
      ["host", "vm1"],
      ["zone", "eu"],
    ]);
    expect(labelChanger({ add: { env: "prod", zone: "us" }, drop: ["env", "zone"] })(pairs)).toEqual([
      ["host", "vm1"],
      ["job", "node"],
    ]);
  });

  it("gives each name once, sorted: the added value, else the set's, never a dropped one", () => {
    const name = fc.constantFrom("a", "b", "c", "d", "é", "B");
    const labelSet = fc
      .uniqueArray(fc.tuple(name, fc.string({ maxLength: 3 })), { selector: ([key]) => key })
      .map((labels) => labels.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
    const changes = fc.record(
      { add: fc.dictionary(name, fc.string({ maxLength: 3 })), drop: fc.array(name) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(labelSet, changes, (labels, { add = {}, drop = [] }) => {
        const changed = labelChanger({ add, drop })(labels);
        const names = changed.map(([key]) => key);
        expect(names).toEqual([...new Set(names)].sort());
        const expectedNames = new Set([...labels.map(([key]) => key), ...Object.keys(add)]);
        for (const dropped of drop) expectedNames.delete(dropped);
        expect(new Set(names)).toEqual(expectedNames);
        for (const [key, value] of changed) {
          expect(value).toBe(Object.hasOwn(add, key) ? add[key] : labels.find(([sent]) => sent === key)![1]);
        }
      }),
    );
  });
});
