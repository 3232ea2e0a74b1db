import type { DeliveryResult } from "../load/rounds/delivery-case.ts";
import { fixed } from "./markdown.ts";

/* The figures of a delivery case as the sections that run such cases report them. */

/** What every delivery case measures, from the rate posted to the duplicates, as table columns. */
export const deliveryFigureColumns = [
  "rate data/s",
  "posted data/s",
  "data posted",
  "rejected",
  "delivered data/s per observer",
  "p50 ms",
  "p99 ms",
  "lost",
  "duplicates",
];

/** The cells of `deliveryFigureColumns` for a case posted at `rate`. */
export function deliveryFigureCells(rate: number, result: DeliveryResult): string[] {
  return [
    fixed(rate),
    fixed(result.postedPerSecond),
    fixed(result.posted),
    fixed(result.rejected),
    fixed(result.deliveredPerSecond),
    fixed(result.p50),
    fixed(result.p99),
    fixed(result.lost),
    fixed(result.duplicates),
  ];
}

/** CPU µs of `seconds` per datum-delivery (data accepted × observers); "–" where the CPU was not measured. */
export function perDelivery(seconds: number | undefined, result: DeliveryResult, observers: number): string {
  return seconds === undefined ? "–" : fixed((seconds * 1e6) / (result.posted * observers), 2);
}
