import { expect, it } from "vitest";
import { isWorkerIsolate, snapshotBytes } from "./isolate-heaps.ts";

it("tells the Worker's isolate from the others by its title", () => {
  expect(isWorkerIsolate("workerd: worker core:user:tower-edge", "tower-edge")).toBe(true);
  expect(isWorkerIsolate("workerd: worker queues:queue", "tower-edge")).toBe(false);
  expect(isWorkerIsolate("workerd: worker core:user:tower-edge-assets", "tower-edge")).toBe(false);
});

it("counts a heap snapshot's bytes as the sum of its nodes' self sizes", () => {
  const meta = { node_fields: ["type", "name", "id", "self_size", "edge_count"] };
  const nodes = [0, 1, 1, 100, 0, 3, 2, 3, 28, 1];
  expect(snapshotBytes({ snapshot: { meta }, nodes })).toBe(128);
  expect(() => snapshotBytes({ snapshot: { meta: { node_fields: ["type"] } }, nodes: [] })).toThrow(/self_size/);
});
