import type { InfluxDbUnderTest } from "../load/systems/influxdb.ts";
import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import type { TargetBoard } from "../report/targets.ts";
import type { BenchProcesses } from "../runtime/process-accounting.ts";
import type { BenchSettings } from "../settings.ts";

/** What every part of the report runs against. */
export interface BenchContext {
  settings: BenchSettings;
  /** The Worker's base URL. */
  serviceUrl: string;
  /** The platform floor's base URL: a no-op Worker reached the same way (platform-floor.ts). */
  floorUrl: string;
  /** The Worker as `npm start` runs it, its relay in a process of its own. */
  towerEdge: SystemUnderTest;
  /** InfluxDB to compare with, when one runs on this machine. */
  influxDb: InfluxDbUnderTest | undefined;
  /** The processes whose CPU time and memory the report gives, found by the kernel's process table. */
  processes: BenchProcesses;
  /** Where sections leave their figures for the Targets table at the end. */
  targets: TargetBoard;
  /** A progress note on stderr; not part of the report. */
  progress(note: string): void;
}

/** One part of docs/BENCHMARKS.md: runs its measurements and returns its markdown lines. */
export type BenchSection = (bench: BenchContext) => Promise<string[]>;
