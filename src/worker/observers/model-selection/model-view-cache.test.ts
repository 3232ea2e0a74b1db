import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { knowledgeBase } from "../../model/knowledge-base";
import type { Resource } from "../../model/schema";
import { currentModel, MODEL_RECHECK_MS, type ModelSource, ModelViewCache, resourceMatcher } from "./model-view-cache";

/** A knowledge base of the test's own, and its requests counted by method. */
function countedKnowledgeBase(name: string) {
  const stub = env.KNOWLEDGE_BASE.getByName(`model-view-cache-test-${name}`);
  const calls = { modelVersion: 0, readModel: 0 };
  const source: ModelSource = {
    modelVersion: () => {
      calls.modelVersion += 1;
      return stub.modelVersion();
    },
    readModel: () => {
      calls.readModel += 1;
      return stub.readModel();
    },
  };
  const upsert = (resources: Resource[]) =>
    stub.upsertResources(resources.map((resource, index) => ({ at: `/${index}`, resource })));
  return { calls, source: () => source, upsert };
}

/** A cache on a clock the test moves. */
function cacheWithClock() {
  const clock = { now: 0 };
  return { clock, cache: new ModelViewCache(() => clock.now) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ModelViewCache", () => {
  it("reads the model once, then not at all within the interval, even when it changed", async () => {
    const kb = countedKnowledgeBase("within-interval");
    await kb.upsert([{ clazz: "CloudProvider", id: "aws" }]);
    const { clock, cache } = cacheWithClock();
    const first = await cache.model(kb.source);
    expect([...first.view.resources.keys()]).toEqual(["aws"]);
    await kb.upsert([{ clazz: "VM", id: "vm1", cloudProvider: "aws" }]);
    clock.now = MODEL_RECHECK_MS - 1;
    expect(await cache.model(kb.source)).toBe(first);
    expect(kb.calls).toEqual({ modelVersion: 1, readModel: 1 });
  });

  it("asks only for the version after the interval while the model did not change", async () => {
    const kb = countedKnowledgeBase("unchanged");
    await kb.upsert([{ clazz: "CloudProvider", id: "aws" }]);
    const { clock, cache } = cacheWithClock();
    const first = await cache.model(kb.source);
    clock.now = MODEL_RECHECK_MS;
    expect(await cache.model(kb.source)).toBe(first);
    clock.now = 2 * MODEL_RECHECK_MS - 1;
    expect(await cache.model(kb.source)).toBe(first);
    expect(kb.calls).toEqual({ modelVersion: 2, readModel: 1 });
  });

  it("reads the model again at the first check after it changed", async () => {
    const kb = countedKnowledgeBase("changed");
    await kb.upsert([{ clazz: "CloudProvider", id: "aws" }]);
    const { clock, cache } = cacheWithClock();
    const first = await cache.model(kb.source);
    await kb.upsert([{ clazz: "VM", id: "vm1", cloudProvider: "aws" }]);
    clock.now = MODEL_RECHECK_MS;
    const second = await cache.model(kb.source);
    expect(second.version).not.toBe(first.version);
    expect(second.view.isWithin("vm1", "aws")).toBe(true);
    expect(kb.calls).toEqual({ modelVersion: 2, readModel: 2 });
  });

  it("lets concurrent callers share one check", async () => {
    const kb = countedKnowledgeBase("concurrent");
    const { cache } = cacheWithClock();
    const models = await Promise.all([cache.model(kb.source), cache.model(kb.source), cache.model(kb.source)]);
    expect(new Set(models).size).toBe(1);
    expect(kb.calls).toEqual({ modelVersion: 1, readModel: 1 });
  });

  it("goes on with the model it has while the knowledge base cannot be asked, and fails without one", async () => {
    const kb = countedKnowledgeBase("unreachable");
    const { clock, cache } = cacheWithClock();
    const failing: ModelSource = {
      modelVersion: () => Promise.reject(new Error("unreachable")),
      readModel: () => Promise.reject(new Error("unreachable")),
    };
    await expect(cache.model(() => failing)).rejects.toThrow("unreachable");
    const first = await cache.model(kb.source);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    clock.now = MODEL_RECHECK_MS;
    expect(await cache.model(() => failing)).toBe(first);
    expect(logged).toHaveBeenCalledOnce();
  });
});

describe("resourceMatcher", () => {
  it("compiles a selection once per model version, however its fields are ordered", async () => {
    const kb = countedKnowledgeBase("matchers");
    await kb.upsert([{ clazz: "CloudProvider", id: "aws" }]);
    const { clock, cache } = cacheWithClock();
    const first = await cache.model(kb.source);
    const matcher = resourceMatcher(first, { class: "VM", within: "aws" });
    expect(resourceMatcher(first, { within: "aws", class: "VM" })).toBe(matcher);
    expect(resourceMatcher(first, { within: "aws" })).not.toBe(matcher);
    expect(matcher("vm1")).toBe(false);
    await kb.upsert([{ clazz: "VM", id: "vm1", cloudProvider: "aws" }]);
    clock.now = MODEL_RECHECK_MS;
    const changed = resourceMatcher(await cache.model(kb.source), { class: "VM", within: "aws" });
    expect(changed("vm1")).toBe(true);
    expect(matcher("vm1")).toBe(false);
  });
});

describe("currentModel", () => {
  it("shows a change of the service's model within the interval", async () => {
    const id = `model-view-cache-test-${crypto.randomUUID()}`;
    const kb = knowledgeBase(env);
    await kb.upsertResources([{ at: "/0", resource: { clazz: "Rack", id, nodes: [] } }]);
    try {
      await vi.waitFor(async () => expect((await currentModel(env)).view.resources.has(id)).toBe(true), {
        timeout: MODEL_RECHECK_MS * 2,
        interval: 100,
      });
    } finally {
      await kb.deleteResource(id);
    }
  });
});
