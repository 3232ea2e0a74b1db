import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ModelStore } from "./model-store";
import type { Resource } from "./schema";

/** Runs `work` on the model store of a fresh knowledge base object. */
function withStore<R>(name: string, work: (store: ModelStore) => R): Promise<R> {
  return runInDurableObject(env.KNOWLEDGE_BASE.getByName(name), (_, state) => work(new ModelStore(state.storage.sql)));
}

const aws: Resource = { clazz: "CloudProvider", id: "aws", type: "IaaS" };
const gcp: Resource = { clazz: "CloudProvider", id: "gcp", type: "IaaS" };
const register: Resource = { clazz: "Method", id: "register", type: "register" };
const answer: Resource = { clazz: "Method", id: "answer", type: "answerQuestions" };
const web: Resource = { clazz: "VM", id: "web", type: "Frontend", cloudProvider: "aws", numberOfCPUs: 2 };
const db: Resource = { clazz: "VM", id: "db", type: "Database", cloudProvider: "aws", numberOfCPUs: 8 };
const mic: Resource = {
  clazz: "InternalComponent",
  id: "mic",
  type: "Mic",
  providedMethods: ["register", "answer"],
  requiredComponents: ["web", "db"],
};
const api: Resource = {
  clazz: "InternalComponent",
  id: "api",
  type: "Api",
  providedMethods: ["answer"],
  requiredComponents: ["db"],
};

/** Every resource above, each after what it refers to. */
const model = [aws, gcp, register, answer, web, db, mic, api];

function upsertAll(store: ModelStore, resources: readonly Resource[] = model): void {
  for (const resource of resources) store.upsert(resource);
}

describe("ModelStore", () => {
  it("reads an empty model before anything is written", () =>
    withStore("empty", (store) => {
      expect(store.readModel()).toEqual({ cloudProviders: [], internalComponents: [], methods: [], vMs: [] });
      expect(store.classOf("aws")).toBeUndefined();
      expect(store.readResource("aws")).toBeUndefined();
    }));

  it("reads back each resource with its class and fields, relationships in the order given", () =>
    withStore("read", (store) => {
      upsertAll(store);
      for (const resource of model) expect(store.readResource(resource.id)).toEqual(resource);
      expect(model.map((resource) => store.classOf(resource.id))).toEqual([
        "CloudProvider",
        "CloudProvider",
        "Method",
        "Method",
        "VM",
        "VM",
        "InternalComponent",
        "InternalComponent",
      ]);
      expect(store.classOf("unknown")).toBeUndefined();
    }));

  it("reads the whole model with every array sorted by id", () =>
    withStore("whole", (store) => {
      upsertAll(store, [gcp, aws, register, answer, web, db, mic, api]);
      expect(store.readModel()).toEqual({
        cloudProviders: [
          { id: "aws", type: "IaaS" },
          { id: "gcp", type: "IaaS" },
        ],
        internalComponents: [
          { id: "api", type: "Api", providedMethods: ["answer"], requiredComponents: ["db"] },
          { id: "mic", type: "Mic", providedMethods: ["register", "answer"], requiredComponents: ["web", "db"] },
        ],
        methods: [
          { id: "answer", type: "answerQuestions" },
          { id: "register", type: "register" },
        ],
        vMs: [
          { id: "db", type: "Database", cloudProvider: "aws", numberOfCPUs: 8 },
          { id: "web", type: "Frontend", cloudProvider: "aws", numberOfCPUs: 2 },
        ],
      });
    }));

  it("replaces a stored resource of the same id, relationships included", () =>
    withStore("replace", (store) => {
      upsertAll(store);
      store.upsert({ ...aws, type: "Cloud" });
      store.upsert({ ...web, type: "Edge", cloudProvider: "gcp", numberOfCPUs: 4 });
      store.upsert({ ...mic, type: "Mic2", providedMethods: ["answer"], requiredComponents: [] });
      expect(store.readResource("aws")).toEqual({ ...aws, type: "Cloud" });
      expect(store.readResource("web")).toEqual({ ...web, type: "Edge", cloudProvider: "gcp", numberOfCPUs: 4 });
      expect(store.readResource("mic")).toEqual({
        ...mic,
        type: "Mic2",
        providedMethods: ["answer"],
        requiredComponents: [],
      });
      expect(store.referrersOf("register", "Method")).toEqual([]);
      expect(store.readModel().vMs.map((vm) => vm.id)).toEqual(["db", "web"]);
    }));

  it("finds the resources that refer to a resource, sorted by id and each once", () =>
    withStore("referrers", (store) => {
      upsertAll(store);
      expect(store.referrersOf("aws", "CloudProvider")).toEqual([
        { clazz: "VM", id: "db", field: "cloudProvider" },
        { clazz: "VM", id: "web", field: "cloudProvider" },
      ]);
      expect(store.referrersOf("gcp", "CloudProvider")).toEqual([]);
      expect(store.referrersOf("answer", "Method")).toEqual([
        { clazz: "InternalComponent", id: "api", field: "providedMethods" },
        { clazz: "InternalComponent", id: "mic", field: "providedMethods" },
      ]);
      expect(store.referrersOf("web", "VM")).toEqual([
        { clazz: "InternalComponent", id: "mic", field: "requiredComponents" },
      ]);
      expect(store.referrersOf("mic", "InternalComponent")).toEqual([]);
    }));

  it("deletes a component with its relationships, and then what only it referred to", () =>
    withStore("delete", (store) => {
      upsertAll(store);
      store.delete("mic", "InternalComponent");
      expect(store.readResource("mic")).toBeUndefined();
      expect(store.classOf("mic")).toBeUndefined();
      expect(store.referrersOf("register", "Method")).toEqual([]);
      expect(store.referrersOf("web", "VM")).toEqual([]);

      store.delete("web", "VM");
      store.delete("register", "Method");
      store.delete("gcp", "CloudProvider");
      expect(store.readModel()).toEqual({
        cloudProviders: [{ id: "aws", type: "IaaS" }],
        internalComponents: [{ id: "api", type: "Api", providedMethods: ["answer"], requiredComponents: ["db"] }],
        methods: [{ id: "answer", type: "answerQuestions" }],
        vMs: [{ id: "db", type: "Database", cloudProvider: "aws", numberOfCPUs: 8 }],
      });
    }));

  it("refuses rows whose references do not exist, or that are still referred to", () =>
    withStore("foreign-keys", (store) => {
      upsertAll(store, [aws, web]);
      expect(() => store.upsert({ ...db, cloudProvider: "nowhere" })).toThrow();
      expect(() => store.upsert({ ...api, providedMethods: ["missing"], requiredComponents: [] })).toThrow();
      expect(() => store.delete("aws", "CloudProvider")).toThrow();
      expect(store.readResource("aws")).toEqual(aws);
    }));

  it("clears every resource, after which ids can be reused by any class", () =>
    withStore("clear", (store) => {
      upsertAll(store);
      store.clear();
      expect(store.readModel()).toEqual({ cloudProviders: [], internalComponents: [], methods: [], vMs: [] });
      expect(model.map((resource) => store.classOf(resource.id))).toEqual(model.map(() => undefined));
      store.upsert({ clazz: "Method", id: "aws", type: "ping" });
      expect(store.classOf("aws")).toBe("Method");
    }));
});
