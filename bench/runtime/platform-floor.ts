import { Miniflare, NoOpLog } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { discardOutput } from "../../tools/start/local-worker.ts";
import { wranglerConfigPath } from "../../tools/start/project.ts";

/** One line, no work: what a request costs the platform before any of the Worker's own. */
const noOpWorkerScript = `export default { fetch: () => new Response("ok") };`;

export interface PlatformFloor {
  /** http://127.0.0.1:<port> */
  url: string;
  dispose(): Promise<void>;
}

/**
 * The platform's floor for a request: the no-op Worker in workerd under Miniflare, reached as
 * `npm start` reaches the service's Worker (startLocalWorker), on a socket of the Worker's own,
 * with the service's compatibility date.
 */
export async function startPlatformFloor(): Promise<PlatformFloor> {
  const { compatibility_date: compatibilityDate } = unstable_readConfig({ config: wranglerConfigPath });
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
