import { expect, it } from "vitest";
import { isolateRole, snapshotBytes } from "./isolate-heaps.ts";

it("tells the Worker's isolate and the local queue's from the others by their titles", () => {
  expect(isolateRole("workerd: worker core:user:tower-edge", "tower-edge")).toBe("worker");
  expect(isolateRole("workerd: worker queues:queue", "tower-edge")).toBe("queue");
  expect(isolateRole("workerd: worker core:user:tower-edge-assets", "tower-edge")).toBeUndefined();
  expect(isolateRole("workerd: worker queues:queue:tower-intake", "tower-edge")).toBeUndefined();
});

it("counts a heap snapshot's bytes as the sum of its nodes' self sizes", () => {
  const meta = { node_fields: ["type", "name", "id", "self_size", "edge_count"] };
  const nodes = [0, 1, 1, 100, 0, 3, 2, 3, 28, 1];
  expect(snapshotBytes({ snapshot: { meta }, nodes })).toBe(128);
  expect(() => snapshotBytes({ snapshot: { meta: { node_fields: ["type"] } }, nodes: [] })).toThrow(/self_size/);
});
