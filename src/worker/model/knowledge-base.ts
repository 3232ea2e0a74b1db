import { DurableObject } from "cloudflare:workers";
import type { FieldProblem } from "../../shared/problems";
import { countingRequests } from "../ops/usage";
import { integrityProblems } from "./integrity";
import { ModelStore, type Referrer } from "./model-store";
import { type LocatedResource, type ModelDocument, type Resource, resourceClasses } from "./schema";

/** The outcome of a write: on problems (located in the request body) nothing was written. */
export type ModelWriteResult = { ok: true } | { ok: false; problems: FieldProblem[] };

export type ResourceDeletion =
  | { outcome: "deleted" }
  | { outcome: "not-found" }
  | { outcome: "referenced"; referrers: Referrer[] };

/** Referenced classes first, so that every row's references exist when it is written. */
function inWritingOrder(resources: readonly LocatedResource[]): LocatedResource[] {
  return resources.toSorted(
    (a, b) => resourceClasses.indexOf(a.resource.clazz) - resourceClasses.indexOf(b.resource.clazz),
  );
}

/**
 * The resource model (knowledge base). One instance holds the whole model; it is off the data path,
 * so one object's throughput is plenty. Every method runs synchronously in one storage transaction,
 * so requests are serialized and a rejected or failed write leaves the model as it was.
 */
export class KnowledgeBase extends DurableObject<Env> {
  private readonly store: ModelStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new ModelStore(ctx.storage.sql);
  }

  /** Makes `resources` the whole model. */
  replaceModel(resources: LocatedResource[]): ModelWriteResult {
    return this.write(resources, { replace: true });
  }

  /** Inserts each resource or replaces the stored one of the same id; creates the model if there is none. */
  upsertResources(resources: LocatedResource[]): ModelWriteResult {
    return this.write(resources, { replace: false });
  }

  readModel(): ModelDocument {
    return this.store.readModel();
  }

  readResource(id: string): Resource | null {
    return this.store.readResource(id) ?? null;
  }

  /** Deletes the resource unless another resource still refers to it. */
  deleteResource(id: string): ResourceDeletion {
    return this.ctx.storage.transactionSync((): ResourceDeletion => {
      const clazz = this.store.classOf(id);
      if (clazz === undefined) return { outcome: "not-found" };
      const referrers = this.store.referrersOf(id, clazz);
      if (referrers.length > 0) return { outcome: "referenced", referrers };
      this.store.delete(id, clazz);
      return { outcome: "deleted" };
    });
  }

  private write(resources: readonly LocatedResource[], { replace }: { replace: boolean }): ModelWriteResult {
    return this.ctx.storage.transactionSync((): ModelWriteResult => {
      // A replacement keeps no stored element, so only the body's own classes count.
      const problems = integrityProblems(resources, (id) => (replace ? undefined : this.store.classOf(id)));
      if (problems.length > 0) return { ok: false, problems };
      if (replace) this.store.clear();
      for (const { resource } of inWritingOrder(resources)) this.store.upsert(resource);
      return { ok: true };
    });
  }
}

/** The one knowledge base of the service. */
export function knowledgeBase(env: Env): DurableObjectStub<KnowledgeBase> {
  return countingRequests(env.KNOWLEDGE_BASE.getByName("model"));
}
