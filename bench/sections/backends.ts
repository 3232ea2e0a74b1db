import { formatCostsPart } from "./backends/format-costs.ts";
import { pipelineHopPart } from "./backends/pipeline-hop.ts";
import type { BenchSection } from "./section.ts";

/**
 * Outputs for metric backends: tower-edge as a hop of a metrics pipeline beside vmagent, on an
 * `npm start` of its own that runs and stops first; then what each backend format costs the
 * bench's Worker beside TOWER/JSON.
 */
export const backendsSection: BenchSection = async (bench) => {
  const hop = await pipelineHopPart(bench);
  const formats = await formatCostsPart(bench);
  return [...hop, "", ...formats];
};
