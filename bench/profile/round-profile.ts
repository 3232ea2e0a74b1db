import { attributeFrame, idle } from "./stages.ts";
import { type CpuProfile, selfTimeByStage } from "./summary.ts";

/*
 * A profiled round's figures per unit of its work (a sample, a datum-delivery): the isolate's busy
 * time by stage, and workerd's CPU over the same stretch, part of which the isolate did not spend.
 */

export interface StageFigures {
  /** The isolate's busy time per unit, µs, by stage (idle left out). */
  stageMicros: Map<string, number>;
  /** workerd's CPU time per unit over the same round, µs: the isolate's and the runtime's own. */
  workerdMicros: number;
}

/** The profile's busy time by stage, µs per unit of `units`. */
export function stageMicrosPer(profile: CpuProfile, units: number): Map<string, number> {
  const stageTimes = selfTimeByStage(profile, attributeFrame).filter(({ stage }) => stage !== idle);
  return new Map(stageTimes.map(({ stage, ms }) => [stage, (ms * 1_000) / units]));
}

/** The isolate's busy time per unit, µs. */
export const busyMicros = ({ stageMicros }: StageFigures) =>
  [...stageMicros.values()].reduce((sum, micros) => sum + micros, 0);

/** workerd's CPU per unit outside the Worker's isolate (none if the profile exceeds it). */
export const outsideIsolateMicros = (figures: StageFigures) => Math.max(0, figures.workerdMicros - busyMicros(figures));
