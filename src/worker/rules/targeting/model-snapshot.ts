import { referencedIds } from "../../model/integrity";
import { groupOfClass, isA, type ResourceClass, referenceFieldsOf, resourceClasses } from "../../model/ontology";
import type { ModelDocument, Resource } from "../../model/schema";
import { canGroup, groupingSteps } from "./grouping";

/*
 * The model as rules read it: which resources a rule's targets select, and which groups a resource
 * falls into. Built once from the knowledge base's document and kept by each rule's object until
 * the model changes, so evaluating a window costs no request to the knowledge base.
 */

export interface TargetSelector {
  class: string;
  type?: string;
  id?: string;
}

interface ResourceEntry {
  clazz: ResourceClass;
  type?: string;
  /** The resources one grouping step further (see `groupingSteps`). */
  parents: string[];
}

function resourcesIn(model: ModelDocument): Resource[] {
  return resourceClasses.flatMap((clazz) =>
    model[groupOfClass[clazz]].map((fields) => ({ ...fields, clazz }) as Resource),
  );
}

export class ModelSnapshot {
  private readonly resources = new Map<string, ResourceEntry>();

  constructor(model: ModelDocument) {
    const resources = resourcesIn(model);
    for (const { id, clazz, type } of resources) this.resources.set(id, { clazz, type, parents: [] });
    for (const holder of resources) {
      for (const [field] of referenceFieldsOf(holder.clazz)) {
        for (const targetId of referencedIds(holder, field)) this.link(holder.id, field, targetId);
      }
    }
  }

  /** Records the grouping steps that `holder` naming `targetId` in `field` makes, in either direction. */
  private link(holderId: string, field: string, targetId: string): void {
    const holder = this.resources.get(holderId);
    const target = this.resources.get(targetId);
    if (!holder || !target) return;
    for (const step of groupingSteps) {
      const into = step.into as readonly string[];
      if ("field" in step && step.field === field && step.from === holder.clazz && into.includes(target.clazz)) {
        holder.parents.push(targetId);
      }
      if ("heldIn" in step && step.heldIn === field && step.from === target.clazz && into.includes(holder.clazz)) {
        target.parents.push(holderId);
      }
    }
  }

  /**
   * Whether `resourceId` is a resource one of `targets` selects: by id (of the target's class or a
   * subclass), else by type (whatever the class), else every resource of the class.
   */
  selects(targets: readonly TargetSelector[], resourceId: string): boolean {
    const resource = this.resources.get(resourceId);
    if (!resource) return false;
    return targets.some((target) => {
      if (target.id !== undefined) return target.id === resourceId && isA(resource.clazz, target.class);
      if (target.type !== undefined) return target.type === resource.type;
      return isA(resource.clazz, target.class);
    });
  }

  /** The resources of `groupingClass` that `resourceId` groups into (none if the model does not link them). */
  groupsOf(resourceId: string, groupingClass: ResourceClass): string[] {
    const groups = new Set<string>();
    const seen = new Set([resourceId]);
    let current = [resourceId];
    while (current.length > 0) {
      const next: string[] = [];
      for (const id of current) {
        const resource = this.resources.get(id);
        if (!resource) continue;
        if (resource.clazz === groupingClass) {
          groups.add(id);
          continue;
        }
        if (!canGroup(resource.clazz, groupingClass)) continue;
        for (const parent of resource.parents) {
          if (seen.has(parent)) continue;
          seen.add(parent);
          next.push(parent);
        }
      }
      current = next;
    }
    return [...groups];
  }
}
