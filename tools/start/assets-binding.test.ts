import { expect, it } from "vitest";
import { assetsBehindBinding, type NamedWorkerOptions } from "./assets-binding.ts";

const runsFirst = { has_user_worker: true, invoke_user_worker_ahead_of_assets: true };
const worker = (assets: NamedWorkerOptions["assets"]): NamedWorkerOptions => ({
  name: "tower-edge",
  compatibilityDate: "2026-04-01",
  serviceBindings: { OTHER: "other-worker" },
  assets,
});

it("takes the assets off a Worker that runs first and binds them from a Worker of their own", () => {
  const [user, assets, ...more] = assetsBehindBinding(
    worker({ directory: "/srv/public", binding: "ASSETS", routerConfig: runsFirst }),
  );
  expect(more).toEqual([]);
  expect(user).toEqual({
    name: "tower-edge",
    compatibilityDate: "2026-04-01",
    serviceBindings: { OTHER: "other-worker", ASSETS: "tower-edge-assets" },
  });
  expect(assets).toMatchObject({
    name: "tower-edge-assets",
    compatibilityDate: "2026-04-01",
    assets: { directory: "/srv/public", binding: "ASSETS", routerConfig: { has_user_worker: false } },
  });
});

it.each([
  ["no assets", undefined],
  ["assets without a binding", { directory: "/srv/public", routerConfig: runsFirst }],
  ["assets served before the Worker", { directory: "/srv/public", binding: "ASSETS", routerConfig: {} }],
  [
    "the Worker first for some paths only",
    {
      directory: "/srv/public",
      binding: "ASSETS",
      routerConfig: { ...runsFirst, static_routing: { user_worker: ["/api/*"] } },
    },
  ],
])("leaves a Worker with %s as it is", (_, assets) => {
  const options = worker(assets);
  expect(assetsBehindBinding(options)).toEqual([options]);
});
