import { expect, it } from "vitest";
import { cpuCost, type JournalRow, journalCost } from "./journal.ts";

/** A row of `requests` requests in `seconds`, its Worker using `cpu` CPU seconds, then `consumption` more. */
function row(requests: number, seconds: number, cpu: number, consumption: number): JournalRow {
  return {
    measured: {
      load: { requests, seconds, perSecond: requests / seconds, errors: 0 },
      cpu: { worker: cpu, relay: 0, bench: 0 },
    },
    consumptionSeconds: consumption,
  };
}

it("gives a row's Worker CPU per request and per datum, while it ran and with its consumption", () => {
  expect(cpuCost(row(1_000, 2, 0.5, 0.25), 10)).toEqual({ perRequest: 500, perDatum: 50, perDatumConsumed: 75 });
});

it("gives what the journal adds as on minus off, and the ratio of their requests/s", () => {
  const cost = journalCost(row(1_000, 2, 0.5, 0.25), row(800, 2, 0.6, 0.3), 10);
  expect(cost.perRequest).toBeCloseTo(250);
  expect(cost.perDatum).toBeCloseTo(25);
  expect(cost.perDatumConsumed).toBeCloseTo(37.5);
  expect(cost.throughputRatio).toBeCloseTo(0.8);
});
