import { groupOfClass, type ResourceClass, resourceClasses } from "../../model/ontology";
import type { ModelDocument } from "../../model/schema";
import { ModelSnapshot } from "../../rules/targeting/model-snapshot";

/** What a selection asks of a resource besides where it is. */
export interface ModelResource {
  clazz: ResourceClass;
  type: string | undefined;
}

/**
 * The model as selector observers read it: every resource with its class and type, and the groups
 * each falls into as the rules group them (the rules' own snapshot answers that).
 */
export class ModelView {
  readonly resources = new Map<string, ModelResource>();
  private readonly snapshot: ModelSnapshot;

  constructor(model: ModelDocument) {
    for (const clazz of resourceClasses) {
      for (const { id, type } of model[groupOfClass[clazz]]) this.resources.set(id, { clazz, type });
    }
    this.snapshot = new ModelSnapshot(model);
  }

  /** Whether `holderId` is `resourceId` itself or one of the groups it falls into, however far up. */
  isWithin(resourceId: string, holderId: string): boolean {
    const holder = this.resources.get(holderId);
    return holder !== undefined && this.snapshot.groupsOf(resourceId, holder.clazz).includes(holderId);
  }
}
