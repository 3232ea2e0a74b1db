import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import { withInspectedWorker } from "../runtime/inspected-worker.ts";
import type { ProcessGroup } from "../runtime/process-accounting.ts";
import { connectIsolateProfiler, type IsolateProfiler } from "./isolate-profiler.ts";

/** A Worker to profile, the profiler connected to its isolate, and its workerd process. */
export interface ProfiledWorker {
  serviceUrl: string;
  system: SystemUnderTest;
  profiler: IsolateProfiler;
  runtime: ProcessGroup;
}

/** Runs `use` on a Worker of its own (see withInspectedWorker) with the profiler connected to its isolate. */
export async function withProfiledWorker<T>(use: (worker: ProfiledWorker) => Promise<T>): Promise<T> {
  return withInspectedWorker("profile", {}, async ({ serviceUrl, system, inspectorPort, runtime }) => {
    const profiler = await connectIsolateProfiler(inspectorPort);
    try {
      return await use({ serviceUrl, system, profiler, runtime });
    } finally {
      profiler.close();
    }
  });
}
