import { expect, it } from "vitest";
import { perDatumLine } from "./per-datum-bench.ts";

it("reports the time per datum of the runs", () => {
  expect(perDatumLine("line protocol", 2_000, 400, 10_000)).toBe(
    "line protocol: 500.0 ns per datum (400 runs of 10000 data in 2000 ms)",
  );
});
