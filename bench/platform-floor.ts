import { Miniflare, NoOpLog } from "miniflare";
import { discardOutput } from "../tools/start/local-worker.ts";

/** One line, no work: what a request costs the platform before any of the Worker's own. */
export const noOpWorkerScript = `export default { fetch: () => new Response("ok") };`;

export interface PlatformFloor {
  /** http://127.0.0.1:<port> */
  url: string;
  dispose(): Promise<void>;
}

/**
 * The platform's floor for a request: the no-op Worker in workerd under Miniflare, reached as
 * `npm start` reaches the service's Worker (startLocalWorker), on a socket of the Worker's own.
 */
export async function startPlatformFloor(compatibilityDate: string): Promise<PlatformFloor> {
  const miniflare = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new NoOpLog(),
    handleRuntimeStdio: discardOutput,
    workers: [
      {
        name: "platform-floor",
        modules: true,
        script: noOpWorkerScript,
        compatibilityDate,
        unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
      },
    ],
  });
  try {
    return { url: (await miniflare.unsafeGetDirectURL()).origin, dispose: () => miniflare.dispose() };
  } catch (error) {
    await miniflare.dispose();
    throw error;
  }
}
