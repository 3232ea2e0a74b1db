import { expect, it } from "vitest";
import { restartBackoff } from "./restart-backoff.ts";

const policy = { firstDelayMs: 100, maxDelayMs: 1_000, steadyRunMs: 5_000 };

it("doubles the delay with each quick exit in a row, up to the maximum", () => {
  const delayAfter = restartBackoff(policy);
  expect([10, 10, 10, 10, 10].map(delayAfter)).toEqual([200, 400, 800, 1_000, 1_000]);
});

it("starts again from the first delay after a steady run", () => {
  const delayAfter = restartBackoff(policy);
  delayAfter(10);
  delayAfter(10);
  expect(delayAfter(5_000)).toBe(100);
  expect(delayAfter(10)).toBe(200);
});
