import type { WorkerOptions } from "miniflare";

/** A Worker of a Miniflare instance: its options, and the name other Workers bind to it by. */
export type NamedWorkerOptions = WorkerOptions & { name: string };

/**
 * The Workers that serve `worker` as deployed when its static assets are configured to let the
 * Worker run first for every request (wrangler.toml `run_worker_first = true`).
 *
 * Deployed, the platform routes requests outside the Worker's isolate. Miniflare instead puts its
 * asset router, two Workers of its own, in front of every request to a Worker with assets, even
 * one that runs first: a hop that costs more than a small route's own work. Here the Worker keeps
 * its assets binding but has no assets of its own, so requests reach it directly; the binding
 * names a second Worker that holds the same assets with no Worker behind them, so that only what
 * the Worker asks of the binding passes the router. Any other assets configuration routes
 * requests by their path, which is part of how it behaves, and is left as it is.
 */
export function assetsBehindBinding(worker: NamedWorkerOptions): NamedWorkerOptions[] {
  const { assets, ...rest } = worker;
  const routes = assets?.routerConfig;
  const runsFirst = routes?.invoke_user_worker_ahead_of_assets === true && routes.static_routing === undefined;
  if (assets?.binding === undefined || !runsFirst) return [worker];
  const assetsWorker: NamedWorkerOptions = {
    name: `${worker.name}-assets`,
    // Never runs: with no Worker behind them, the assets answer every request, a missing file 404.
    modules: true,
    script: "export default {};",
    ...(worker.compatibilityDate === undefined ? {} : { compatibilityDate: worker.compatibilityDate }),
    ...(worker.compatibilityFlags === undefined ? {} : { compatibilityFlags: worker.compatibilityFlags }),
    assets: { ...assets, routerConfig: { has_user_worker: false } },
  };
  return [
    { ...rest, serviceBindings: { ...worker.serviceBindings, [assets.binding]: assetsWorker.name } },
    assetsWorker,
  ];
}
