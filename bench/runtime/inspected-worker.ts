import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LocalWorker, startLocalWorker } from "../../tools/start/local-worker.ts";
import { freePort } from "../../tools/testing/free-port.ts";
import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import { towerEdge } from "../load/systems/tower-edge.ts";
import { findDescendants, ProcessGroup } from "./process-accounting.ts";

/** A Worker of its own with workerd's inspector open, and its workerd process. */
export interface InspectedWorker {
  serviceUrl: string;
  system: SystemUnderTest;
  inspectorPort: number;
  runtime: ProcessGroup;
}

const workerdPids = () =>
  new Set(findDescendants(process.pid, (child) => child.comm === "workerd").map(({ pid }) => pid));

/** Inspector ports tried: another process may take a free port before workerd binds it. */
const inspectorPortAttempts = 3;

/** The Worker on a port workerd picks, with its inspector on a port found free. */
async function startWithInspector(
  stateDir: string,
  bindings: Record<string, string>,
): Promise<{ worker: LocalWorker; inspectorPort: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const inspectorPort = await freePort();
    try {
      const worker = await startLocalWorker({
        port: 0,
        stateDir,
        verbose: false,
        inspectorPort,
        bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true", ...bindings },
        asDeployed: true,
      });
      return { worker, inspectorPort };
    } catch (error) {
      const taken = (error as { code?: unknown }).code === "ERR_ADDRESS_IN_USE";
      if (!taken || attempt === inspectorPortAttempts) throw error;
    }
  }
}

/**
 * Runs `use` on a Worker of its own, as `npm start` runs it but with workerd's inspector open and
 * `bindings` added to the bench's, and stops it after. Measurements through the inspector have a
 * Worker to themselves: an open inspector may cost the isolate time, which the other measurements
 * must not carry, and a fresh workerd's memory carries nothing of earlier sections.
 */
export async function withInspectedWorker<T>(
  name: string,
  bindings: Record<string, string>,
  use: (worker: InspectedWorker) => Promise<T>,
): Promise<T> {
  const stateDir = await mkdtemp(join(tmpdir(), `tower-edge-${name}-`));
  const before = workerdPids();
  const { worker, inspectorPort } = await startWithInspector(stateDir, bindings);
  const system = towerEdge(worker.url);
  try {
    const runtime = new ProcessGroup(
      "workerd",
      findDescendants(process.pid, (child) => child.comm === "workerd" && !before.has(child.pid)),
    );
    return await use({ serviceUrl: worker.url, system, inspectorPort, runtime });
  } finally {
    await system.close();
    await worker.dispose();
    await rm(stateDir, { recursive: true, force: true });
  }
}
