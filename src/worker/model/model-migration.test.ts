import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { emptyModel } from "../../../test/support/model";
import { ModelStore } from "./model-store";

/** The first layout as the knowledge base created it: a table per class and per relationship array. */
const firstLayout = [
  `CREATE TABLE resources (
     id TEXT PRIMARY KEY,
     clazz TEXT NOT NULL CHECK (clazz IN ('CloudProvider', 'Method', 'VM', 'InternalComponent')))`,
  "CREATE TABLE cloud_providers (id TEXT PRIMARY KEY REFERENCES resources (id), type TEXT NOT NULL)",
  "CREATE TABLE methods (id TEXT PRIMARY KEY REFERENCES resources (id), type TEXT NOT NULL)",
  `CREATE TABLE vms (
     id TEXT PRIMARY KEY REFERENCES resources (id), type TEXT NOT NULL,
     cloud_provider TEXT NOT NULL REFERENCES cloud_providers (id),
     number_of_cpus INTEGER NOT NULL CHECK (number_of_cpus >= 1))`,
  "CREATE INDEX vms_by_cloud_provider ON vms (cloud_provider)",
  "CREATE TABLE internal_components (id TEXT PRIMARY KEY REFERENCES resources (id), type TEXT NOT NULL)",
  `CREATE TABLE provided_methods (
     component_id TEXT NOT NULL REFERENCES internal_components (id), position INTEGER NOT NULL,
     method_id TEXT NOT NULL REFERENCES methods (id), PRIMARY KEY (component_id, position))`,
  "CREATE INDEX provided_methods_by_method ON provided_methods (method_id)",
  `CREATE TABLE required_components (
     component_id TEXT NOT NULL REFERENCES internal_components (id), position INTEGER NOT NULL,
     vm_id TEXT NOT NULL REFERENCES vms (id), PRIMARY KEY (component_id, position))`,
  "CREATE INDEX required_components_by_vm ON required_components (vm_id)",
];

/** A model stored in the first layout: two providers, two VMs, three methods, two components. */
const firstLayoutRows = [
  "INSERT INTO resources VALUES ('amazon', 'CloudProvider'), ('flexi', 'CloudProvider'), ('m1', 'Method'), ('m2', 'Method'), ('m3', 'Method'), ('vm1', 'VM'), ('vm2', 'VM'), ('mic1', 'InternalComponent'), ('mic2', 'InternalComponent')",
  "INSERT INTO cloud_providers VALUES ('amazon', 'IaaS'), ('flexi', 'PaaS')",
  "INSERT INTO methods VALUES ('m1', 'register'), ('m2', 'answer'), ('m3', 'save')",
  "INSERT INTO vms VALUES ('vm1', 'Frontend', 'amazon', 2), ('vm2', 'Backend', 'flexi', 8)",
  "INSERT INTO internal_components VALUES ('mic1', 'Mic'), ('mic2', 'Lonely')",
  "INSERT INTO provided_methods VALUES ('mic1', 0, 'm3'), ('mic1', 1, 'm1')",
  "INSERT INTO required_components VALUES ('mic1', 0, 'vm2'), ('mic1', 1, 'vm1')",
];

const migratedModel = {
  ...emptyModel,
  cloudProviders: [
    { id: "amazon", type: "IaaS" },
    { id: "flexi", type: "PaaS" },
  ],
  methods: [
    { id: "m1", type: "register" },
    { id: "m2", type: "answer" },
    { id: "m3", type: "save" },
  ],
  vMs: [
    { id: "vm1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 },
    { id: "vm2", type: "Backend", cloudProvider: "flexi", numberOfCPUs: 8 },
  ],
  internalComponents: [
    { id: "mic1", type: "Mic", providedMethods: ["m3", "m1"], requiredComponents: ["vm2", "vm1"] },
    { id: "mic2", type: "Lonely", providedMethods: [], requiredComponents: [] },
  ],
};

function tables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray()
    .map((row) => row.name);
}

describe("opening a model stored in the first layout", () => {
  it("moves every resource and relationship into the current layout and drops the old tables", () =>
    runInDurableObject(env.KNOWLEDGE_BASE.getByName("first-layout"), (_, state) => {
      const { sql } = state.storage;
      for (const statement of [...firstLayout, ...firstLayoutRows]) sql.exec(statement);

      const store = new ModelStore(sql);
      expect(store.readModel()).toEqual(migratedModel);
      expect(store.referrersOf("vm1")).toEqual([
        { clazz: "InternalComponent", id: "mic1", field: "requiredComponents" },
      ]);
      expect(tables(sql)).toEqual(["collector_listings", "model_references", "model_resources"]);
      // What the first layout held came through /resources: nothing of it is a collector's to remove.
      expect(store.removeUnclaimed()).toEqual([]);

      expect(new ModelStore(sql).readModel()).toEqual(migratedModel);
    }));

  it("moves an empty model of the first layout", () =>
    runInDurableObject(env.KNOWLEDGE_BASE.getByName("first-layout-empty"), (_, state) => {
      const { sql } = state.storage;
      for (const statement of firstLayout) sql.exec(statement);
      expect(new ModelStore(sql).readModel()).toEqual(emptyModel);
      expect(tables(sql)).toEqual(["collector_listings", "model_references", "model_resources"]);
    }));
});
