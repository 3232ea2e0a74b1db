import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyModel, wholeOntologyModel } from "../support/model.ts";
import { type Service, startService } from "./support/service.ts";

/*
 * The knowledge base on the running service across restarts: the whole ontology, as uploaded,
 * comes back from the Durable Object's database on the same on-disk state.
 */
let service: Service;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
});

describe("the knowledge base across a restart", () => {
  it("keeps every class of the model, its references and what refers to what", async () => {
    expect(await service.call("PUT", "/v1/resources", wholeOntologyModel)).toEqual({ status: 204, body: undefined });
    const stored = { ...emptyModel, ...wholeOntologyModel };
    expect(await service.call("GET", "/v1/resources")).toEqual({ status: 200, body: stored });

    await service.restart();

    expect(await service.call("GET", "/v1/resources")).toEqual({ status: 200, body: stored });
    expect(await service.call("GET", "/resources/vm1")).toEqual({
      status: 200,
      body: { clazz: "VM", ...wholeOntologyModel.vMs[0] },
    });
    const conflict = await service.call("DELETE", "/resources/node1");
    expect(conflict.status).toBe(409);
    expect(conflict.body.errors).toEqual([
      { path: "/id", message: "Cluster cluster1 refers to it in nodes." },
      { path: "/id", message: "Rack rack1 refers to it in nodes." },
    ]);
  });

  it("keeps later changes, deletions included", async () => {
    const added = [
      { clazz: "Location", id: "ap-south", type: "Region" },
      { clazz: "Node", id: "node2", type: "Blade", vms: ["vm2"] },
    ];
    expect((await service.call("POST", "/v1/resources", added)).status).toBe(204);
    expect((await service.call("DELETE", "/v1/resources/rack1")).status).toBe(204);
    const before = await service.call("GET", "/v1/resources");

    await service.restart();

    expect(await service.call("GET", "/v1/resources")).toEqual(before);
    expect(before.body.racks).toEqual([]);
    expect(before.body.nodes.map((node: { id: string }) => node.id)).toEqual(["node1", "node2"]);
  });
});
