import { expect, it } from "vitest";
import { awaitArrivals } from "./awaited-arrivals.ts";

it("returns once the expected data arrived", async () => {
  const tally = { distinct: 0, lastArrival: 0 };
  const arriving = setTimeout(() => Object.assign(tally, { distinct: 3, lastArrival: Date.now() }), 30);
  const started = Date.now();
  await awaitArrivals(tally, 3);
  clearTimeout(arriving);
  expect(tally.distinct).toBe(3);
  expect(Date.now() - started).toBeLessThan(1_000);
});

it("returns at once when they are already in", async () => {
  const started = Date.now();
  await awaitArrivals({ distinct: 5, lastArrival: Date.now() }, 5);
  expect(Date.now() - started).toBeLessThan(100);
});
