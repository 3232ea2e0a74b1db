import type { BenchSettings } from "./settings.ts";
import type { SystemUnderTest } from "./system-under-test.ts";

/** What every part of the report runs against. */
export interface BenchContext {
  settings: BenchSettings;
  /** The Worker's base URL. */
  serviceUrl: string;
  /** The Worker as `npm start` runs it, its relay in a process of its own. */
  towerEdge: SystemUnderTest;
  /** InfluxDB to compare with, when one runs on this machine. */
  influxDb: SystemUnderTest | undefined;
  /** A progress note on stderr; not part of the report. */
  progress(note: string): void;
}

/** One part of docs/BENCHMARKS.md: runs its measurements and returns its markdown lines. */
export type BenchSection = (bench: BenchContext) => Promise<string[]>;
