import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { emptyModel, wholeOntologyModel } from "../../../test/support/model";
import { ModelStore } from "./model-store";
import { groupOfClass, resourceClasses } from "./ontology";
import type { ModelDocument, Resource } from "./schema";

/** Runs `work` on the model store of a fresh knowledge base object. */
function withStore<R>(name: string, work: (store: ModelStore) => R): Promise<R> {
  return runInDurableObject(env.KNOWLEDGE_BASE.getByName(name), (_, state) => work(new ModelStore(state.storage.sql)));
}

const aws: Resource = { clazz: "CloudProvider", id: "aws", type: "IaaS" };
const gcp: Resource = { clazz: "CloudProvider", id: "gcp", type: "IaaS" };
const euWest: Resource = { clazz: "Location", id: "eu-west", type: "Region" };
const register: Resource = { clazz: "Method", id: "register", type: "register" };
const answer: Resource = { clazz: "Method", id: "answer", type: "answerQuestions" };
const web: Resource = {
  clazz: "VM",
  id: "web",
  type: "Frontend",
  cloudProvider: "aws",
  location: "eu-west",
  numberOfCPUs: 2,
};
const db: Resource = { clazz: "VM", id: "db", type: "Database", cloudProvider: "aws", numberOfCPUs: 8 };
const queue: Resource = { clazz: "PaaSService", id: "queue", type: "Queue", cloudProvider: "gcp", location: "eu-west" };
const cdn: Resource = { clazz: "ExternalComponent", id: "cdn", type: "CDN" };
const legacy: Resource = { clazz: "Component", id: "legacy", type: "Mainframe" };
const mic: Resource = {
  clazz: "InternalComponent",
  id: "mic",
  type: "Mic",
  providedMethods: ["register", "answer"],
  requiredComponents: ["web", "db", "queue"],
};
const api: Resource = {
  clazz: "InternalComponent",
  id: "api",
  type: "Api",
  providedMethods: ["answer"],
  requiredComponents: ["mic", "cdn", "legacy"],
};
const blade: Resource = { clazz: "Node", id: "blade", type: "Blade", vms: ["web", "db"] };
const cluster: Resource = { clazz: "Cluster", id: "cluster", type: "HPC", nodes: ["blade"] };
const rack: Resource = { clazz: "Rack", id: "rack", type: "Rack42", nodes: ["blade"] };

/** One or more resources of every class. */
const model = [aws, gcp, euWest, register, answer, web, db, queue, cdn, legacy, mic, api, blade, cluster, rack];

function upsertAll(store: ModelStore, resources: readonly Resource[] = model, uploaded = true): void {
  store.upsertAll(resources, { uploaded });
}

describe("ModelStore", () => {
  it("reads an empty model before anything is written", () =>
    withStore("empty", (store) => {
      expect(store.readModel()).toEqual(emptyModel);
      expect(store.classOf("aws")).toBeUndefined();
      expect(store.readResource("aws")).toBeUndefined();
    }));

  it("reads back each resource with its class and fields, relationships in the order given", () =>
    withStore("read", (store) => {
      upsertAll(store);
      for (const resource of model) {
        expect(store.readResource(resource.id)).toEqual(resource);
        expect(store.classOf(resource.id)).toBe(resource.clazz);
      }
      expect(store.classOf("unknown")).toBeUndefined();
    }));

  it("writes resources that refer to each other in any order", () =>
    withStore("any-order", (store) => {
      upsertAll(store, model.toReversed());
      expect(store.readResource("api")).toEqual(api);
    }));

  it("reads the whole model in the grouped form with every array sorted by id", () =>
    withStore("whole", (store) => {
      const whole: ModelDocument = { ...emptyModel, ...wholeOntologyModel };
      const resources = resourceClasses.flatMap((clazz) =>
        whole[groupOfClass[clazz]].map((fields) => ({ ...fields, clazz }) as Resource),
      );
      upsertAll(store, resources.toReversed());
      expect(store.readModel()).toEqual({ ...emptyModel, ...wholeOntologyModel });
    }));

  it("keeps out the fields a resource was written without", () =>
    withStore("sparse", (store) => {
      const bare: Resource[] = [
        { clazz: "VM", id: "bare-vm" },
        { clazz: "InternalComponent", id: "bare-app", providedMethods: [], requiredComponents: ["bare-vm"] },
      ];
      upsertAll(store, bare, false);
      expect(store.readResource("bare-vm")).toEqual({ clazz: "VM", id: "bare-vm" });
      expect(store.readModel().vMs).toEqual([{ id: "bare-vm" }]);
      expect(store.readModel().internalComponents).toEqual([
        { id: "bare-app", providedMethods: [], requiredComponents: ["bare-vm"] },
      ]);
    }));

  it("replaces a stored resource of the same id, references included", () =>
    withStore("replace", (store) => {
      upsertAll(store);
      upsertAll(store, [
        { ...aws, type: "Cloud" },
        { clazz: "VM", id: "web", type: "Edge", cloudProvider: "gcp", numberOfCPUs: 4 },
        { ...mic, type: "Mic2", providedMethods: ["answer"], requiredComponents: [] },
      ]);
      expect(store.readResource("aws")).toEqual({ ...aws, type: "Cloud" });
      expect(store.readResource("web")).toEqual({
        clazz: "VM",
        id: "web",
        type: "Edge",
        cloudProvider: "gcp",
        numberOfCPUs: 4,
      });
      expect(store.readResource("mic")).toEqual({
        ...mic,
        type: "Mic2",
        providedMethods: ["answer"],
        requiredComponents: [],
      });
      expect(store.referrersOf("register")).toEqual([]);
      expect(store.referrersOf("eu-west")).toEqual([{ clazz: "PaaSService", id: "queue", field: "location" }]);
    }));

  it("finds the resources that refer to a resource through any field, sorted by id", () =>
    withStore("referrers", (store) => {
      upsertAll(store);
      expect(store.referrersOf("aws")).toEqual([
        { clazz: "VM", id: "db", field: "cloudProvider" },
        { clazz: "VM", id: "web", field: "cloudProvider" },
      ]);
      expect(store.referrersOf("eu-west")).toEqual([
        { clazz: "PaaSService", id: "queue", field: "location" },
        { clazz: "VM", id: "web", field: "location" },
      ]);
      expect(store.referrersOf("answer")).toEqual([
        { clazz: "InternalComponent", id: "api", field: "providedMethods" },
        { clazz: "InternalComponent", id: "mic", field: "providedMethods" },
      ]);
      expect(store.referrersOf("mic")).toEqual([
        { clazz: "InternalComponent", id: "api", field: "requiredComponents" },
      ]);
      expect(store.referrersOf("web")).toEqual([
        { clazz: "Node", id: "blade", field: "vms" },
        { clazz: "InternalComponent", id: "mic", field: "requiredComponents" },
      ]);
      expect(store.referrersOf("blade")).toEqual([
        { clazz: "Cluster", id: "cluster", field: "nodes" },
        { clazz: "Rack", id: "rack", field: "nodes" },
      ]);
      expect(store.referrersOf("api")).toEqual([]);
    }));

  it("deletes a resource with its references, and then what only it referred to", () =>
    withStore("delete", (store) => {
      upsertAll(store);
      store.delete("api");
      expect(store.readResource("api")).toBeUndefined();
      expect(store.classOf("api")).toBeUndefined();
      expect(store.referrersOf("mic")).toEqual([]);
      store.delete("mic");
      store.delete("legacy");
      expect(store.referrersOf("queue")).toEqual([]);
      store.delete("queue");
      expect(store.readModel().paaSServices).toEqual([]);
      expect(store.readModel().locations).toEqual([{ id: "eu-west", type: "Region" }]);
    }));

  it("refuses rows whose references do not exist, or that are still referred to", () =>
    withStore("foreign-keys", (store) => {
      upsertAll(store, [aws, db]);
      expect(() => upsertAll(store, [{ ...db, id: "db2", cloudProvider: "nowhere" }])).toThrow();
      expect(() => upsertAll(store, [{ ...blade, vms: ["missing"] }])).toThrow();
      expect(() => store.delete("aws")).toThrow();
      expect(store.readResource("aws")).toEqual(aws);
    }));

  it("clears every resource, after which ids can be reused by any class", () =>
    withStore("clear", (store) => {
      upsertAll(store);
      store.clear();
      expect(store.readModel()).toEqual(emptyModel);
      expect(model.map((resource) => store.classOf(resource.id))).toEqual(model.map(() => undefined));
      upsertAll(store, [{ clazz: "Rack", id: "aws", type: "Rack42", nodes: [] }]);
      expect(store.classOf("aws")).toBe("Rack");
    }));
});

describe("ModelStore: what keeps a resource in the model", () => {
  it("keeps every uploaded resource", () =>
    withStore("keeps-uploaded", (store) => {
      upsertAll(store);
      expect(store.removeUnclaimed()).toEqual([]);
      expect(store.readModel().vMs).toHaveLength(2);
    }));

  it("removes a collector's resources once no collector lists them, referrers before what they refer to", () =>
    withStore("listing", (store) => {
      upsertAll(store, [aws, web, euWest], false);
      store.recordListing("dc1", ["aws", "web", "eu-west"]);
      store.recordListing("dc2", ["aws"]);
      expect(store.removeUnclaimed()).toEqual([]);
      store.forgetListing("dc1");
      expect(store.removeUnclaimed()).toEqual(["eu-west", "web"]);
      expect(store.readResource("aws")).toEqual(aws);
      store.recordListing("dc2", []);
      expect(store.removeUnclaimed()).toEqual(["aws"]);
      expect(store.readModel()).toEqual(emptyModel);
    }));

  it("keeps an unlisted resource while a kept resource refers to it, directly or through others", () =>
    withStore("referred", (store) => {
      upsertAll(store, [aws, db], false);
      upsertAll(store, [{ clazz: "VM", id: "web", cloudProvider: "aws", numberOfCPUs: 1 }], true);
      upsertAll(store, [blade], false);
      upsertAll(store, [rack], true);
      // The uploaded rack holds blade, which holds web (uploaded) and db (neither): all stay.
      expect(store.removeUnclaimed()).toEqual([]);
      store.delete("rack");
      expect(store.removeUnclaimed()).toEqual(["blade", "db"]);
      expect(store.readResource("aws")).toEqual(aws);
    }));

  it("removes unlisted resources that refer to each other in a cycle", () =>
    withStore("cycle", (store) => {
      upsertAll(
        store,
        [
          { clazz: "InternalComponent", id: "a", providedMethods: [], requiredComponents: ["b"] },
          { clazz: "InternalComponent", id: "b", providedMethods: [], requiredComponents: ["a"] },
        ],
        false,
      );
      expect(store.removeUnclaimed()).toEqual(["a", "b"]);
    }));

  it("marks a resource uploaded for good once it came through /resources", () =>
    withStore("uploaded-stays", (store) => {
      upsertAll(store, [aws], true);
      upsertAll(store, [aws], false);
      expect(store.removeUnclaimed()).toEqual([]);
    }));

  it("keeps a listing for ids that are not in the model", () =>
    withStore("listing-ahead", (store) => {
      store.recordListing("dc1", ["later", "later"]);
      upsertAll(store, [{ clazz: "Method", id: "later" }], false);
      expect(store.removeUnclaimed()).toEqual([]);
    }));
});
