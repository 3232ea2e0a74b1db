import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { knowledgeBase } from "../model/knowledge-base";
import type { Resource } from "../model/schema";
import { type Descriptor, descriptorSchema } from "./descriptor-schema";

/** A registry of its own for each test; the knowledge base is the service's one, so ids differ per test. */
function registryNamed(name: string) {
  return env.COLLECTOR_REGISTRY.getByName(`registry-test-${name}`);
}

function descriptor(resources: Resource[], keepAlive = 45): Descriptor {
  return descriptorSchema.parse({ resources, keepAlive, configSyncPeriod: 30 });
}

const provider = (id: string): Resource => ({ clazz: "CloudProvider", id, type: "IaaS" });

/** The clock compressed: the collector was last heard from `seconds` ago. */
async function silentFor(registry: ReturnType<typeof registryNamed>, id: string, seconds: number): Promise<void> {
  await runInDurableObject(registry, (_, state) => {
    state.storage.sql.exec("UPDATE collector SET heard_at = ? WHERE id = ?", Date.now() - seconds * 1000, id);
  });
}

const inModel = async (id: string) => (await knowledgeBase(env).readResource(id)) !== null;

describe("CollectorRegistry", () => {
  it("keeps a registration with its resources in the model", async () => {
    const registry = registryNamed("keeps");
    expect(await registry.register("dc", descriptor([provider("keeps-p")]))).toEqual({ ok: true });
    expect((await registry.get("dc"))?.descriptor.keepAlive).toBe(45);
    expect(await inModel("keeps-p")).toBe(true);
  });

  it("refuses resources that do not fit the model, registering nothing", async () => {
    const registry = registryNamed("refuses");
    const vm: Resource = { clazz: "VM", id: "refuses-vm", cloudProvider: "nowhere" };
    const registration = await registry.register("dc", descriptor([vm]));
    expect(registration.ok).toBe(false);
    expect(await registry.get("dc")).toBeNull();
    expect(await inModel("refuses-vm")).toBe(false);
  });

  it("removes a collector silent for its keepAlive at the alarm, and its resources with it", async () => {
    const registry = registryNamed("expires");
    await registry.register("dc", descriptor([provider("expires-p")]));
    await silentFor(registry, "dc", 46);
    expect(await runDurableObjectAlarm(registry)).toBe(true);
    expect(await registry.list()).toEqual([]);
    expect(await inModel("expires-p")).toBe(false);
  });

  it("keeps a collector heard from within its keepAlive", async () => {
    const registry = registryNamed("heard");
    await registry.register("dc", descriptor([provider("heard-p")]));
    await silentFor(registry, "dc", 40);
    expect(await registry.heardFrom("dc")).not.toBeNull();
    await silentFor(registry, "dc", 40);
    await runDurableObjectAlarm(registry);
    expect((await registry.list()).map((collector) => collector.id)).toEqual(["dc"]);
  });

  it("never removes a collector whose keepAlive is 0", async () => {
    const registry = registryNamed("never");
    await registry.register("dc", descriptor([provider("never-p")], 0));
    await silentFor(registry, "dc", 86_400 * 365);
    expect(await registry.heardFrom("dc")).not.toBeNull();
  });

  it("answers an expired collector as unknown before the alarm comes", async () => {
    const registry = registryNamed("before-alarm");
    await registry.register("dc", descriptor([provider("before-alarm-p")]));
    await silentFor(registry, "dc", 46);
    expect(await registry.get("dc")).toBeNull();
    expect(await registry.heardFrom("dc")).toBeNull();
    expect(await inModel("before-alarm-p")).toBe(false);
  });

  it("leaves in the model what was also uploaded, or what a live collector lists", async () => {
    const registry = registryNamed("shared");
    await knowledgeBase(env).upsertResources([{ at: "/0", resource: provider("shared-uploaded") }]);
    await registry.register("gone", descriptor([provider("shared-uploaded"), provider("shared-listed")]));
    await registry.register("live", descriptor([provider("shared-listed")], 0));
    await silentFor(registry, "gone", 46);
    await runDurableObjectAlarm(registry);
    expect(await inModel("shared-uploaded")).toBe(true);
    expect(await inModel("shared-listed")).toBe(true);
  });

  it("writes a live collector's deleted resources back when it is heard from", async () => {
    const registry = registryNamed("restores");
    await registry.register("dc", descriptor([provider("restores-p")]));
    expect(await knowledgeBase(env).deleteResource("restores-p")).toEqual({ outcome: "deleted" });
    expect(await inModel("restores-p")).toBe(false);
    await registry.heardFrom("dc");
    expect(await inModel("restores-p")).toBe(true);
  });

  it("releases the resources of a collector removed", async () => {
    const registry = registryNamed("removed");
    await registry.register("dc", descriptor([provider("removed-p")]));
    expect(await registry.remove("dc")).toBe(true);
    expect(await registry.remove("dc")).toBe(false);
    expect(await inModel("removed-p")).toBe(false);
  });

  it("replaces a registration under the same id, and what it listed", async () => {
    const registry = registryNamed("replaces");
    await registry.register("dc", descriptor([provider("replaces-a")]));
    await registry.register("dc", descriptor([provider("replaces-b")], 60));
    expect((await registry.get("dc"))?.descriptor.keepAlive).toBe(60);
    expect(await inModel("replaces-a")).toBe(false);
    expect(await inModel("replaces-b")).toBe(true);
  });
});
