import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatumRow } from "../vocabulary/datum";
import type { MetricRun } from "../vocabulary/delivery";
import { viaOfRuns } from "./metric-runs";

const row = (id: string): DatumRow => [id, 1_000, 1, "vm1"];

describe("viaOfRuns", () => {
  it("names no service for rows that came by none", () => {
    expect(viaOfRuns([["m", [row("a")]]], new Map())).toEqual([]);
    expect(viaOfRuns([["m", [row("a")]]], new Map([[row("b"), ["edge-1"]]]))).toEqual([]);
  });

  it("unites the chains of the runs' rows, each service once, in the order first seen", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map(row);
    const first = ["edge-1", "edge-2"];
    const chains = new Map([
      [a!, first],
      [b!, first],
      [c!, ["edge-3", "edge-1"]],
    ]);
    const runs: MetricRun[] = [
      ["m", [d!, a!]],
      ["n", [c!, b!]],
    ];
    expect(viaOfRuns(runs, chains)).toEqual(["edge-1", "edge-2", "edge-3"]);
    expect(viaOfRuns([["n", [c!]]], chains)).toEqual(["edge-3", "edge-1"]);
  });

  it("names every service of every row's chain, and no other", () => {
    const chain = fc.uniqueArray(fc.constantFrom("e1", "e2", "e3", "e4"), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(fc.option(chain), { maxLength: 12 }), (rowChains) => {
        const rows = rowChains.map((_, index) => row(`r${index}`));
        const chains = new Map<DatumRow, readonly string[]>();
        rowChains.forEach((each, index) => {
          if (each) chains.set(rows[index]!, each);
        });
        const via = viaOfRuns([["m", rows]], chains);
        expect(via).toEqual([...new Set(rowChains.flatMap((each) => each ?? []))]);
      }),
    );
  });
});
