import type { Reporter } from "vitest/node";

/** What the reporter reads of a test file (vitest's TestModule) once it has run. */
export interface TimedFile {
  readonly relativeModuleId: string;
  readonly project: { readonly name: string };
  diagnostic(): {
    environmentSetupDuration: number;
    prepareDuration: number;
    setupDuration: number;
    collectDuration: number;
    duration: number;
  };
}

export interface FileTime {
  project: string;
  file: string;
  ms: number;
}

/**
 * The `count` files that took longest, slowest first. A file's time is all it took in its
 * worker: its environment, its imports and its tests and hooks.
 */
export function slowestFiles(files: readonly TimedFile[], count: number): FileTime[] {
  return files
    .map((file) => {
      const time = file.diagnostic();
      const ms =
        time.environmentSetupDuration +
        time.prepareDuration +
        time.setupDuration +
        time.collectDuration +
        time.duration;
      return { project: file.project.name, file: file.relativeModuleId, ms };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

/** The list as the run's last lines show it: seconds, project and file, one file a line. */
export function describeSlowest(files: readonly FileTime[]): string {
  const projectWidth = Math.max(0, ...files.map((file) => file.project.length));
  const lines = files.map(
    ({ project, file, ms }) => `  ${(ms / 1_000).toFixed(1).padStart(6)} s  ${project.padEnd(projectWidth)}  ${file}`,
  );
  return `Slowest test files:\n${lines.join("\n")}\n`;
}

/**
 * Names the slowest test files at the end of a run, beside the default reporter's summary, so
 * that a run that grows slow says where its time went. Files run side by side: their times add
 * up to more than the run's.
 */
export class SlowestFilesReporter implements Reporter {
  constructor(private readonly count = 10) {}

  onTestRunEnd(testModules: readonly TimedFile[]): void {
    if (testModules.length === 0) return;
    process.stdout.write(`\n${describeSlowest(slowestFiles(testModules, this.count))}`);
  }
}
