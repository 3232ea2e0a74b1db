import { afterEach, expect, it, vi } from "vitest";
import { describeSlowest, SlowestFilesReporter, slowestFiles, type TimedFile } from "./slowest-files-reporter.ts";

function timedFile(project: string, file: string, collectMs: number, testsMs: number): TimedFile {
  return {
    relativeModuleId: file,
    project: { name: project },
    diagnostic: () => ({
      environmentSetupDuration: 1,
      prepareDuration: 2,
      setupDuration: 3,
      collectDuration: collectMs,
      duration: testsMs,
    }),
  };
}

const files = [
  timedFile("node", "a.test.ts", 10, 100),
  timedFile("e2e", "b.test.ts", 1_000, 60_000),
  timedFile("worker", "c.test.ts", 4, 2_000),
];

afterEach(() => {
  vi.restoreAllMocks();
});

it("orders files by all the time each took, slowest first, and keeps the first ones", () => {
  expect(slowestFiles(files, 2)).toEqual([
    { project: "e2e", file: "b.test.ts", ms: 61_006 },
    { project: "worker", file: "c.test.ts", ms: 2_010 },
  ]);
});

it("lists seconds, project and file in aligned columns", () => {
  expect(describeSlowest(slowestFiles(files, 3))).toBe(
    [
      "Slowest test files:",
      "    61.0 s  e2e     b.test.ts",
      "     2.0 s  worker  c.test.ts",
      "     0.1 s  node    a.test.ts",
      "",
    ].join("\n"),
  );
});

it("prints the list at the end of a run, and nothing when no file ran", () => {
  const written = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const reporter = new SlowestFilesReporter(1);

  reporter.onTestRunEnd([]);
  expect(written).not.toHaveBeenCalled();

  reporter.onTestRunEnd(files);
  expect(written).toHaveBeenCalledWith("\nSlowest test files:\n    61.0 s  e2e  b.test.ts\n");
});
