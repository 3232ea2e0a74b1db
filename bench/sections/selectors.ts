import type { BenchSection } from "./section.ts";
import { selectorFanOutPart } from "./selectors/fan-out.ts";
import { selectorHotPathPart } from "./selectors/hot-path.ts";
import { selectorObjectRequestsPart } from "./selectors/object-requests.ts";

/**
 * Observers that follow selectors: fan-out through one that follows 1,000 metrics beside a
 * per-metric observer, the Durable Object requests its object costs a batch, and what selectors that
 * want none of the data cost the intake. The parts run in the order of the metrics they create, so
 * that the 1,000 metrics of the fan-out do not weigh on the other two (every selector observer's
 * registration tells every metric); the report lists them fan-out first.
 */
export const selectorObserversSection: BenchSection = async (bench) => {
  const hotPath = await selectorHotPathPart(bench);
  const objectRequests = await selectorObjectRequestsPart(bench);
  const fanOut = await selectorFanOutPart(bench);
  return [...fanOut, "", ...objectRequests, "", ...hotPath];
};
