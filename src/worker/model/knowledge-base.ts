import { DurableObject } from "cloudflare:workers";
import type { FieldProblem } from "../../shared/problems";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { integrityProblems } from "./integrity";
import { ModelStore, modelSchema, type Referrer } from "./model-store";
import type { ResourceClass } from "./ontology";
import { mergedResource } from "./resource-merge";
import type { LocatedResource, ModelDocument, Resource } from "./schema";

/** The outcome of a write: on problems (located in the request body) nothing was written. */
export type ModelWriteResult = { ok: true } | { ok: false; problems: FieldProblem[] };

export type ResourceDeletion =
  | { outcome: "deleted" }
  | { outcome: "not-found" }
  | { outcome: "referenced"; referrers: Referrer[] };

const succeeded = (result: ModelWriteResult) => result.ok;

/** The knowledge base's schema steps, numbered from 1 in this order. */
const schemaSteps: SchemaSteps = [modelSchema];

/**
 * Of the resources missing from the model, those that can be written back: repeatedly drops the ones
 * with a reference that resolves neither in the model nor among the others still kept.
 */
function restorable(
  missing: readonly Resource[],
  storedClassOf: (id: string) => ResourceClass | undefined,
): Resource[] {
  let kept = [...missing];
  for (;;) {
    const keptClassOf = new Map(kept.map((resource) => [resource.id, resource.clazz]));
    const classOf = (id: string) => keptClassOf.get(id) ?? storedClassOf(id);
    const resolving = kept.filter((resource) => integrityProblems([{ at: "", resource }], classOf).length === 0);
    if (resolving.length === kept.length) return kept;
    kept = resolving;
  }
}

/**
 * The resource model (knowledge base). One instance holds the whole model; it is off the data path,
 * so one object's throughput is plenty. Every method runs synchronously in one storage transaction,
 * so requests are serialized and a rejected or failed write leaves the model as it was.
 *
 * Resources come from two sources: /resources (uploaded, kept until deleted or replaced) and the data
 * collectors (kept while a collector lists them). After every write, resources that neither source
 * keeps and nothing refers to leave the model.
 */
export class KnowledgeBase extends DurableObject<Env> {
  private readonly store: ModelStore;
  /**
   * The model's version: this instance's own prefix and a count of its changes, so that a reader can
   * tell a change without reading the model, and a count that starts again after a restart is not
   * mistaken for the one before.
   */
  private readonly incarnation = crypto.randomUUID();
  private changes = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateSchema(ctx.storage, schemaSteps);
    this.store = new ModelStore(ctx.storage.sql);
  }

  /** Makes `resources` the whole model. */
  replaceModel(resources: LocatedResource[]): ModelWriteResult {
    return this.transaction((): ModelWriteResult => {
      // A replacement keeps no stored element, so only the body's own classes count.
      const problems = integrityProblems(resources, () => undefined);
      if (problems.length > 0) return { ok: false, problems };
      this.store.clear();
      this.store.upsertAll(
        resources.map((located) => located.resource),
        { uploaded: true },
      );
      return { ok: true };
    }, succeeded);
  }

  /** Inserts each resource or replaces the stored one of the same id; creates the model if there is none. */
  upsertResources(resources: LocatedResource[]): ModelWriteResult {
    return this.transaction((): ModelWriteResult => {
      const problems = integrityProblems(resources, (id) => this.store.classOf(id));
      if (problems.length > 0) return { ok: false, problems };
      this.store.upsertAll(
        resources.map((located) => located.resource),
        { uploaded: true },
      );
      return { ok: true };
    }, succeeded);
  }

  /** The problems `upsertResources` would find in `resources` (ids, classes, references), writing nothing. */
  upsertProblems(resources: LocatedResource[]): FieldProblem[] {
    return integrityProblems(resources, (id) => this.store.classOf(id));
  }

  readModel(): ModelDocument {
    return this.store.readModel();
  }

  /** Changes whenever the model does: a model read after it is at least as new. */
  modelVersion(): string {
    return `${this.incarnation}:${this.changes}`;
  }

  readResource(id: string): Resource | null {
    return this.store.readResource(id) ?? null;
  }

  /** Deletes the resource unless another resource still refers to it. */
  deleteResource(id: string): ResourceDeletion {
    return this.transaction(
      (): ResourceDeletion => {
        if (this.store.classOf(id) === undefined) return { outcome: "not-found" };
        const referrers = this.store.referrersOf(id);
        if (referrers.length > 0) return { outcome: "referenced", referrers };
        this.store.delete(id);
        return { outcome: "deleted" };
      },
      (deletion) => deletion.outcome === "deleted",
    );
  }

  /**
   * A data collector's registration: merges its resources into the model (a stored resource of the
   * same id keeps the union of each set of references, and takes every other field given) and records
   * that the collector lists exactly these ids. References are checked against the resulting model;
   * on problems, located by each resource's `at`, nothing is written.
   */
  mergeCollectorResources(collectorId: string, resources: LocatedResource[]): ModelWriteResult {
    return this.transaction((): ModelWriteResult => {
      const problems = integrityProblems(resources, (id) => this.store.classOf(id));
      if (problems.length > 0) return { ok: false, problems };
      const merged = resources.map(({ resource }) => {
        const stored = this.store.readResource(resource.id);
        return stored ? mergedResource(stored, resource) : resource;
      });
      this.store.upsertAll(merged, { uploaded: false });
      this.store.recordListing(
        collectorId,
        resources.map((located) => located.resource.id),
      );
      return { ok: true };
    }, succeeded);
  }

  /**
   * A live collector heard from: writes back those of its resources that are missing from the model
   * (deleted through /resources), leaving the others as they are, and records its listing again. A
   * resource whose references cannot resolve any more is not restored.
   */
  restoreCollectorResources(collectorId: string, resources: Resource[]): { restored: string[] } {
    return this.transaction(
      () => {
        this.store.recordListing(
          collectorId,
          resources.map((resource) => resource.id),
        );
        const ids = new Set<string>();
        const missing = resources.filter((resource) => {
          const first = !ids.has(resource.id);
          ids.add(resource.id);
          return first && this.store.classOf(resource.id) === undefined;
        });
        const restored = restorable(missing, (id) => this.store.classOf(id));
        this.store.upsertAll(restored, { uploaded: false });
        return { restored: restored.map((resource) => resource.id) };
      },
      (restoration) => restoration.restored.length > 0,
    );
  }

  /**
   * Collectors removed (deleted or expired): forgets what they listed, so that their resources leave
   * the model unless another collector lists them, they were uploaded, or something kept refers to them.
   */
  releaseCollectorResources(collectorIds: string[]): { removed: string[] } {
    return this.ctx.storage.transactionSync(() => {
      for (const collectorId of collectorIds) this.store.forgetListing(collectorId);
      const removed = this.store.removeUnclaimed();
      if (removed.length > 0) this.changes += 1;
      return { removed };
    });
  }

  /**
   * Runs `write` in one transaction, then removes what nothing keeps in the model any more; counts a
   * change when `changed` says the write made one or something was removed (a collector's keep-alive
   * that restores nothing makes none).
   */
  private transaction<R>(write: () => R, changed: (result: R) => boolean): R {
    return this.ctx.storage.transactionSync(() => {
      const result = write();
      const removed = this.store.removeUnclaimed();
      if (changed(result) || removed.length > 0) this.changes += 1;
      return result;
    });
  }
}

/** The one knowledge base of the service. */
export function knowledgeBase(env: Env): DurableObjectStub<KnowledgeBase> {
  return countingRequests(env.KNOWLEDGE_BASE.getByName("model"), "KNOWLEDGE_BASE");
}
