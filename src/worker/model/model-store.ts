import type { ModelDocument, Resource, ResourceClass, ResourceFields } from "./schema";

/** A resource that refers to another one, and the field through which it does. */
export interface Referrer {
  clazz: ResourceClass;
  id: string;
  field: "cloudProvider" | "providedMethods" | "requiredComponents";
}

/*
 * One table per class, keyed by id, and one table per relationship array, so that referrers are
 * found by an indexed query. `resources` is the single id namespace of the model: it says which
 * class table holds an id. The foreign keys guard the invariants the knowledge base validates.
 */
const schema = [
  `CREATE TABLE IF NOT EXISTS resources (
     id TEXT PRIMARY KEY,
     clazz TEXT NOT NULL CHECK (clazz IN ('CloudProvider', 'Method', 'VM', 'InternalComponent'))
   )`,
  `CREATE TABLE IF NOT EXISTS cloud_providers (
     id TEXT PRIMARY KEY REFERENCES resources (id),
     type TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS methods (
     id TEXT PRIMARY KEY REFERENCES resources (id),
     type TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS vms (
     id TEXT PRIMARY KEY REFERENCES resources (id),
     type TEXT NOT NULL,
     cloud_provider TEXT NOT NULL REFERENCES cloud_providers (id),
     number_of_cpus INTEGER NOT NULL CHECK (number_of_cpus >= 1)
   )`,
  `CREATE INDEX IF NOT EXISTS vms_by_cloud_provider ON vms (cloud_provider)`,
  `CREATE TABLE IF NOT EXISTS internal_components (
     id TEXT PRIMARY KEY REFERENCES resources (id),
     type TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS provided_methods (
     component_id TEXT NOT NULL REFERENCES internal_components (id),
     position INTEGER NOT NULL,
     method_id TEXT NOT NULL REFERENCES methods (id),
     PRIMARY KEY (component_id, position)
   )`,
  `CREATE INDEX IF NOT EXISTS provided_methods_by_method ON provided_methods (method_id)`,
  `CREATE TABLE IF NOT EXISTS required_components (
     component_id TEXT NOT NULL REFERENCES internal_components (id),
     position INTEGER NOT NULL,
     vm_id TEXT NOT NULL REFERENCES vms (id),
     PRIMARY KEY (component_id, position)
   )`,
  `CREATE INDEX IF NOT EXISTS required_components_by_vm ON required_components (vm_id)`,
];

/** The table of each class; every one has `id` and `type` columns. */
const classTable = {
  CloudProvider: "cloud_providers",
  Method: "methods",
  VM: "vms",
  InternalComponent: "internal_components",
} as const satisfies Record<ResourceClass, string>;

/** The link table of each relationship array of an InternalComponent. */
const relationships = {
  providedMethods: { table: "provided_methods", targetColumn: "method_id" },
  requiredComponents: { table: "required_components", targetColumn: "vm_id" },
} as const;
type Relationship = keyof typeof relationships;

/** Who can refer to a resource of each class, and the query that finds them. */
const referrersOfClass = {
  CloudProvider: {
    clazz: "VM",
    field: "cloudProvider",
    query: "SELECT id FROM vms WHERE cloud_provider = ? ORDER BY id",
  },
  Method: {
    clazz: "InternalComponent",
    field: "providedMethods",
    query: "SELECT DISTINCT component_id AS id FROM provided_methods WHERE method_id = ? ORDER BY id",
  },
  VM: {
    clazz: "InternalComponent",
    field: "requiredComponents",
    query: "SELECT DISTINCT component_id AS id FROM required_components WHERE vm_id = ? ORDER BY id",
  },
  InternalComponent: undefined,
} as const satisfies Record<ResourceClass, (Omit<Referrer, "id"> & { query: string }) | undefined>;

/** Removal order: rows before the rows they refer to. */
const tablesToClear = [
  relationships.providedMethods.table,
  relationships.requiredComponents.table,
  classTable.InternalComponent,
  classTable.VM,
  classTable.Method,
  classTable.CloudProvider,
  "resources",
];

type IdAndType = { id: string; type: string };
type TypedTable = (typeof classTable)["CloudProvider" | "Method" | "InternalComponent"];
type VmRow = IdAndType & { cloud_provider: string; number_of_cpus: number };
const vmColumns = "id, type, cloud_provider, number_of_cpus";

function vmFields(row: VmRow): ResourceFields<"VM"> {
  return { id: row.id, type: row.type, cloudProvider: row.cloud_provider, numberOfCPUs: row.number_of_cpus };
}

/**
 * The model's rows in a Durable Object's SQLite database. Synchronous, like the storage API: the
 * caller decides what runs in one transaction.
 */
export class ModelStore {
  constructor(private readonly sql: SqlStorage) {
    for (const statement of schema) sql.exec(statement);
  }

  classOf(id: string): ResourceClass | undefined {
    return this.sql.exec<{ clazz: ResourceClass }>("SELECT clazz FROM resources WHERE id = ?", id).toArray()[0]?.clazz;
  }

  /** The whole model, every array sorted by id. */
  readModel(): ModelDocument {
    const providedMethods = this.allLinks("providedMethods");
    const requiredComponents = this.allLinks("requiredComponents");
    return {
      cloudProviders: this.idsAndTypes(classTable.CloudProvider),
      internalComponents: this.idsAndTypes(classTable.InternalComponent).map(({ id, type }) => ({
        id,
        type,
        providedMethods: providedMethods.get(id) ?? [],
        requiredComponents: requiredComponents.get(id) ?? [],
      })),
      methods: this.idsAndTypes(classTable.Method),
      vMs: this.sql.exec<VmRow>(`SELECT ${vmColumns} FROM vms ORDER BY id`).toArray().map(vmFields),
    };
  }

  readResource(id: string): Resource | undefined {
    const clazz = this.classOf(id);
    switch (clazz) {
      case undefined:
        return undefined;
      case "CloudProvider":
      case "Method":
        return { clazz, ...this.idAndType(classTable[clazz], id) };
      case "VM": {
        const row = this.sql.exec<VmRow>(`SELECT ${vmColumns} FROM vms WHERE id = ?`, id).one();
        return { clazz, ...vmFields(row) };
      }
      case "InternalComponent":
        return {
          clazz,
          ...this.idAndType(classTable.InternalComponent, id),
          providedMethods: this.linksOf("providedMethods", id),
          requiredComponents: this.linksOf("requiredComponents", id),
        };
    }
  }

  /** The resources that refer to `id` (of class `clazz`), sorted by id. */
  referrersOf(id: string, clazz: ResourceClass): Referrer[] {
    const referring = referrersOfClass[clazz];
    if (!referring) return [];
    return this.sql
      .exec<{ id: string }>(referring.query, id)
      .toArray()
      .map((row) => ({ clazz: referring.clazz, id: row.id, field: referring.field }));
  }

  /** Removes every resource. */
  clear(): void {
    for (const table of tablesToClear) this.sql.exec(`DELETE FROM ${table}`);
  }

  /**
   * Inserts `resource`, or replaces the stored resource of the same id and class. Whatever it refers
   * to must be written first.
   */
  upsert(resource: Resource): void {
    const { id, clazz } = resource;
    this.sql.exec("INSERT INTO resources (id, clazz) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", id, clazz);
    switch (resource.clazz) {
      case "CloudProvider":
      case "Method":
        this.upsertIdAndType(classTable[resource.clazz], resource);
        return;
      case "VM":
        this.sql.exec(
          `INSERT INTO vms (id, type, cloud_provider, number_of_cpus) VALUES (?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET
             type = excluded.type, cloud_provider = excluded.cloud_provider, number_of_cpus = excluded.number_of_cpus`,
          id,
          resource.type,
          resource.cloudProvider,
          resource.numberOfCPUs,
        );
        return;
      case "InternalComponent":
        this.upsertIdAndType(classTable.InternalComponent, resource);
        this.replaceLinks("providedMethods", id, resource.providedMethods);
        this.replaceLinks("requiredComponents", id, resource.requiredComponents);
        return;
    }
  }

  /** Removes the resource `id` of class `clazz` with its own relationships; nothing may refer to it. */
  delete(id: string, clazz: ResourceClass): void {
    if (clazz === "InternalComponent") {
      this.replaceLinks("providedMethods", id, []);
      this.replaceLinks("requiredComponents", id, []);
    }
    this.sql.exec(`DELETE FROM ${classTable[clazz]} WHERE id = ?`, id);
    this.sql.exec("DELETE FROM resources WHERE id = ?", id);
  }

  private idAndType(table: TypedTable, id: string): IdAndType {
    return this.sql.exec<IdAndType>(`SELECT id, type FROM ${table} WHERE id = ?`, id).one();
  }

  private idsAndTypes(table: TypedTable): IdAndType[] {
    return this.sql
      .exec<IdAndType>(`SELECT id, type FROM ${table} ORDER BY id`)
      .toArray()
      .map(({ id, type }) => ({ id, type }));
  }

  private upsertIdAndType(table: TypedTable, { id, type }: IdAndType): void {
    this.sql.exec(
      `INSERT INTO ${table} (id, type) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET type = excluded.type`,
      id,
      type,
    );
  }

  /** Every component's ids of one relationship, in the order they were given. */
  private allLinks(relationship: Relationship): Map<string, string[]> {
    const { table, targetColumn } = relationships[relationship];
    const links = new Map<string, string[]>();
    const rows = this.sql.exec<{ component_id: string; target_id: string }>(
      `SELECT component_id, ${targetColumn} AS target_id FROM ${table} ORDER BY component_id, position`,
    );
    for (const row of rows) {
      const ids = links.get(row.component_id);
      if (ids) ids.push(row.target_id);
      else links.set(row.component_id, [row.target_id]);
    }
    return links;
  }

  private linksOf(relationship: Relationship, componentId: string): string[] {
    const { table, targetColumn } = relationships[relationship];
    return this.sql
      .exec<{ target_id: string }>(
        `SELECT ${targetColumn} AS target_id FROM ${table} WHERE component_id = ? ORDER BY position`,
        componentId,
      )
      .toArray()
      .map((row) => row.target_id);
  }

  private replaceLinks(relationship: Relationship, componentId: string, targetIds: readonly string[]): void {
    const { table, targetColumn } = relationships[relationship];
    this.sql.exec(`DELETE FROM ${table} WHERE component_id = ?`, componentId);
    const insert = `INSERT INTO ${table} (component_id, position, ${targetColumn}) VALUES (?, ?, ?)`;
    for (const [position, targetId] of targetIds.entries()) this.sql.exec(insert, componentId, position, targetId);
  }
}
