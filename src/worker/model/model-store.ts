import { referencedIds } from "./integrity";
import { groupOfClass, type ReferenceFieldName, type ResourceClass, referenceFieldsOf } from "./ontology";
import type { ModelDocument, Resource } from "./schema";

/** A resource that refers to another one, and the field through which it does. */
export interface Referrer {
  clazz: ResourceClass;
  id: string;
  field: ReferenceFieldName;
}

/**
 * The model's tables, a schema step of the knowledge base. One row per resource and one per reference (a set's ids each with its position, so that they read
 * back in the order given), so that the eleven classes share two tables and referrers are found by an
 * indexed query. The foreign keys guard that every reference resolves; that it names the right class
 * is the knowledge base's check. The class is not constrained to a list, so that the ontology can grow
 * without rebuilding the table.
 *
 * `uploaded` marks resources written through /resources; `collector_listings` says which data
 * collectors list which ids (kept when a resource is deleted, so a live collector can restore it). A
 * resource that is neither uploaded nor listed leaves the model once nothing refers to it.
 */
export const modelSchema = `
  CREATE TABLE model_resources (
    id TEXT PRIMARY KEY,
    clazz TEXT NOT NULL,
    type TEXT,
    number_of_cpus INTEGER CHECK (number_of_cpus IS NULL OR (clazz = 'VM' AND number_of_cpus >= 1)),
    uploaded INTEGER NOT NULL DEFAULT 0 CHECK (uploaded IN (0, 1))
  );
  CREATE TABLE model_references (
    resource_id TEXT NOT NULL REFERENCES model_resources (id),
    field TEXT NOT NULL,
    position INTEGER NOT NULL,
    target_id TEXT NOT NULL REFERENCES model_resources (id),
    PRIMARY KEY (resource_id, field, position)
  );
  CREATE INDEX model_references_by_target ON model_references (target_id);
  CREATE TABLE collector_listings (
    collector_id TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    PRIMARY KEY (collector_id, resource_id)
  );
  CREATE INDEX collector_listings_by_resource ON collector_listings (resource_id);
`;

type ResourceRow = {
  id: string;
  clazz: ResourceClass;
  type: string | null;
  number_of_cpus: number | null;
};

type ReferenceRow = {
  resource_id: string;
  field: ReferenceFieldName;
  target_id: string;
};

const resourceColumns = "id, clazz, type, number_of_cpus";

/** A resource from its row and its references, each field grouped (`references` in position order). */
function resourceOf(row: ResourceRow, references: readonly ReferenceRow[]): Resource {
  const resource: Record<string, unknown> = { clazz: row.clazz, id: row.id };
  if (row.type !== null) resource.type = row.type;
  if (row.number_of_cpus !== null) resource.numberOfCPUs = row.number_of_cpus;
  for (const [field, { many }] of referenceFieldsOf(row.clazz)) {
    const ids = references.filter((reference) => reference.field === field).map((reference) => reference.target_id);
    if (many) resource[field] = ids;
    else if (ids[0] !== undefined) resource[field] = ids[0];
  }
  return resource as Resource;
}

/** The resources that are neither uploaded, nor listed by a collector, nor referred to by one that stays. */
const unclaimedQuery = `
  WITH RECURSIVE kept (id) AS (
    SELECT id FROM model_resources
     WHERE uploaded = 1 OR id IN (SELECT resource_id FROM collector_listings)
    UNION
    SELECT reference.target_id FROM model_references AS reference JOIN kept ON reference.resource_id = kept.id
  )
  SELECT id FROM model_resources WHERE id NOT IN (SELECT id FROM kept) ORDER BY id`;

/**
 * The model's rows in a Durable Object's SQLite database (tables of `modelSchema`). Synchronous,
 * like the storage API: the caller decides what runs in one transaction.
 */
export class ModelStore {
  constructor(private readonly sql: SqlStorage) {}

  classOf(id: string): ResourceClass | undefined {
    return this.sql.exec<{ clazz: ResourceClass }>("SELECT clazz FROM model_resources WHERE id = ?", id).toArray()[0]
      ?.clazz;
  }

  /** The whole model, every array sorted by id. */
  readModel(): ModelDocument {
    const referencesOf = new Map<string, ReferenceRow[]>();
    const references = this.sql.exec<ReferenceRow>(
      "SELECT resource_id, field, target_id FROM model_references ORDER BY resource_id, field, position",
    );
    for (const reference of references) {
      const held = referencesOf.get(reference.resource_id);
      if (held) held.push(reference);
      else referencesOf.set(reference.resource_id, [reference]);
    }
    const model = Object.fromEntries(Object.values(groupOfClass).map((group) => [group, []])) as unknown as Record<
      string,
      unknown[]
    >;
    for (const row of this.sql.exec<ResourceRow>(`SELECT ${resourceColumns} FROM model_resources ORDER BY id`)) {
      const { clazz, ...fields } = resourceOf(row, referencesOf.get(row.id) ?? []);
      model[groupOfClass[clazz]]?.push(fields);
    }
    return model as ModelDocument;
  }

  readResource(id: string): Resource | undefined {
    const row = this.sql
      .exec<ResourceRow>(`SELECT ${resourceColumns} FROM model_resources WHERE id = ?`, id)
      .toArray()[0];
    if (!row) return undefined;
    const references = this.sql
      .exec<ReferenceRow>(
        "SELECT resource_id, field, target_id FROM model_references WHERE resource_id = ? ORDER BY field, position",
        id,
      )
      .toArray();
    return resourceOf(row, references);
  }

  /** The resources that refer to `id`, sorted by id, each once per field. */
  referrersOf(id: string): Referrer[] {
    return this.sql
      .exec<{ [K in keyof Referrer]: Referrer[K] }>(
        `SELECT DISTINCT referrer.clazz AS clazz, referrer.id AS id, reference.field AS field
           FROM model_references AS reference JOIN model_resources AS referrer ON referrer.id = reference.resource_id
          WHERE reference.target_id = ?
          ORDER BY referrer.id, reference.field`,
        id,
      )
      .toArray();
  }

  /** Removes every resource (what collectors list is kept). */
  clear(): void {
    this.sql.exec("DELETE FROM model_references");
    this.sql.exec("DELETE FROM model_resources");
  }

  /**
   * Inserts each resource, or replaces the stored resource of the same id and class with it, its
   * references included. Whatever they refer to must be stored or among them. Once uploaded through
   * /resources, a resource stays marked so however it is written later.
   */
  upsertAll(resources: readonly Resource[], { uploaded }: { uploaded: boolean }): void {
    for (const resource of resources) {
      this.sql.exec(
        `INSERT INTO model_resources (id, clazz, type, number_of_cpus, uploaded) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           type = excluded.type, number_of_cpus = excluded.number_of_cpus, uploaded = max(uploaded, excluded.uploaded)`,
        resource.id,
        resource.clazz,
        resource.type ?? null,
        (resource.clazz === "VM" ? resource.numberOfCPUs : undefined) ?? null,
        uploaded ? 1 : 0,
      );
    }
    // Every row exists now, so references among the new resources resolve whatever their order.
    for (const resource of resources) {
      this.sql.exec("DELETE FROM model_references WHERE resource_id = ?", resource.id);
      for (const [field] of referenceFieldsOf(resource.clazz)) {
        for (const [position, targetId] of referencedIds(resource, field).entries()) {
          this.sql.exec(
            "INSERT INTO model_references (resource_id, field, position, target_id) VALUES (?, ?, ?, ?)",
            resource.id,
            field,
            position,
            targetId,
          );
        }
      }
    }
  }

  /** Removes the resource `id` with its own references; nothing may refer to it. */
  delete(id: string): void {
    this.sql.exec("DELETE FROM model_references WHERE resource_id = ?", id);
    this.sql.exec("DELETE FROM model_resources WHERE id = ?", id);
  }

  /** Records that the collector lists exactly `ids` (whether or not they are in the model). */
  recordListing(collectorId: string, ids: readonly string[]): void {
    this.forgetListing(collectorId);
    for (const id of new Set(ids)) {
      this.sql.exec("INSERT INTO collector_listings (collector_id, resource_id) VALUES (?, ?)", collectorId, id);
    }
  }

  forgetListing(collectorId: string): void {
    this.sql.exec("DELETE FROM collector_listings WHERE collector_id = ?", collectorId);
  }

  /**
   * Removes the resources nothing keeps in the model: not uploaded, listed by no collector, and not
   * referred to (directly or through others) by a resource that stays. Returns their ids, sorted.
   */
  removeUnclaimed(): string[] {
    const unclaimed = this.sql
      .exec<{ id: string }>(unclaimedQuery)
      .toArray()
      .map((row) => row.id);
    // Their references go first: they may refer to each other, never does a kept resource to them.
    for (const id of unclaimed) this.sql.exec("DELETE FROM model_references WHERE resource_id = ?", id);
    for (const id of unclaimed) this.sql.exec("DELETE FROM model_resources WHERE id = ?", id);
    return unclaimed;
  }
}
