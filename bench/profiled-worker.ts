import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalWorker } from "../tools/start/local-worker.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { connectIsolateProfiler, type IsolateProfiler } from "./isolate-profiler.ts";
import type { SystemUnderTest } from "./system-under-test.ts";
import { towerEdge } from "./tower-edge.ts";

/** A Worker to profile, and the profiler connected to its isolate. */
export interface ProfiledWorker {
  serviceUrl: string;
  system: SystemUnderTest;
  profiler: IsolateProfiler;
}

/**
 * Runs `use` on a Worker of its own, as `npm start` runs it but with workerd's inspector open, and
 * stops it after. Profiling has a Worker to itself: an open inspector may cost the isolate time,
 * which the other measurements must not carry.
 */
export async function withProfiledWorker<T>(use: (worker: ProfiledWorker) => Promise<T>): Promise<T> {
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-profile-"));
  const inspectorPort = await freePort();
  const worker = await startLocalWorker({
    port: await freePort(),
    stateDir,
    verbose: false,
    inspectorPort,
    bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" },
  });
  const system = towerEdge(worker.url);
  try {
    const profiler = await connectIsolateProfiler(inspectorPort);
    try {
      return await use({ serviceUrl: worker.url, system, profiler });
    } finally {
      profiler.close();
    }
  } finally {
    await system.close();
    await worker.dispose();
    await rm(stateDir, { recursive: true, force: true });
  }
}
