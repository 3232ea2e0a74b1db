import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatumRow } from "../vocabulary/datum";
import type { SelectorEntry } from "../vocabulary/delivery";
import { selectBatch } from "./selector-matching";

const row = (id: string, resourceId: string, pairs?: [string, string][]): DatumRow =>
  pairs === undefined ? [id, 1, 1, resourceId] : [id, 1, 1, resourceId, { pairs }];

let entries = 0;
const entry = (...match: string[]): SelectorEntry => ({ id: `entry-${++entries}`, match });

describe("selectBatch", () => {
  it("gathers what each observer wants from every metric, in the batch's order, one run per metric", () => {
    const cpu = [row("c1", "vm1,mode=idle", [["mode", "idle"]]), row("c2", "vm1,mode=user", [["mode", "user"]])];
    const memory = [row("m1", "vm1")];
    const idle = entry('{mode="idle"}');
    const all = entry('{__name__=~".+"}');

    const wanted = selectBatch([
      { metric: "cpu", rows: cpu, selectors: [idle, all] },
      { metric: "memory", rows: memory, selectors: [idle, all] },
    ]);

    expect(wanted.get(idle.id)?.runs).toEqual([["cpu", [cpu[0]]]]);
    expect(wanted.get(all.id)?.runs).toEqual([
      ["cpu", cpu],
      ["memory", memory],
    ]);
  });

  it("hands over the metric's own rows array when every row matches, and nothing for a name that cannot match", () => {
    const rows = [row("a", "vm1"), row("b", "vm2")];
    const byName = entry("load");
    const other = entry("other_metric");

    const wanted = selectBatch([{ metric: "load", rows, selectors: [byName, other] }]);

    expect(wanted.get(byName.id)?.runs[0]?.[1]).toBe(rows);
    expect(wanted.has(other.id)).toBe(false);
  });

  it("selects data without labels by their resourceId, and tells series of the same resourceId apart by their label names", () => {
    const byResource = entry('{__resource__=~"vm.*"}');
    const byHost = entry('{host="a"}');
    const rows = [row("plain", "vm1"), row("host", "a", [["host", "a"]]), row("instance", "a", [["instance", "a"]])];

    const wanted = selectBatch([{ metric: "m", rows, selectors: [byResource, byHost] }]);
    // Again, from what the isolate remembers of each series.
    const again = selectBatch([{ metric: "m", rows, selectors: [byResource, byHost] }]);

    for (const result of [wanted, again]) {
      expect(result.get(byResource.id)?.runs).toEqual([["m", [rows[0]]]]);
      expect(result.get(byHost.id)?.runs).toEqual([["m", [rows[1]]]]);
    }
  });

  it("selects exactly the rows whose labels the selector matches, batch after batch", () => {
    const values = ["a", "b", "c"];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...values), fc.constantFrom(...values)), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...values),
        (series, wantedJob) => {
          const selector = entry(`{job="${wantedJob}"}`);
          const rows = series.map(([job, instance], index) =>
            row(`d${index}`, `${instance},job=${job}`, [
              ["instance", instance],
              ["job", job],
            ]),
          );
          for (let round = 0; round < 2; round++) {
            const selected = selectBatch([{ metric: "up", rows, selectors: [selector] }]).get(selector.id)
              ?.runs[0]?.[1];
            expect(selected ?? []).toEqual(rows.filter((candidate) => candidate[4]!.pairs[1]![1] === wantedJob));
          }
        },
      ),
    );
  });
});
