import type { ModelDocument, ResourceClass } from "../../model/schema";

/*
 * The model as rules read it: which resources a rule's targets select, and which groups a resource
 * falls into. Built once from the knowledge base's document and kept by each rule's object until
 * the model changes, so evaluating a window costs no request to the knowledge base.
 */

/**
 * The classes a resource groups into, in the order of the model's references: a Method into the
 * InternalComponents that provide it, a component into the VMs it requires, a VM into its
 * CloudProvider. A class groups into itself and every class after it.
 */
export const groupingOrder = ["Method", "InternalComponent", "VM", "CloudProvider"] as const satisfies ResourceClass[];

export function canGroup(targetClass: ResourceClass, groupingClass: ResourceClass): boolean {
  return groupingOrder.indexOf(groupingClass) >= groupingOrder.indexOf(targetClass);
}

export interface TargetSelector {
  class: string;
  type?: string;
  id?: string;
}

interface ResourceEntry {
  clazz: ResourceClass;
  type: string;
  /** The resources one step further along the grouping order. */
  parents: string[];
}

export class ModelSnapshot {
  private readonly resources = new Map<string, ResourceEntry>();

  constructor(model: ModelDocument) {
    const entry = (clazz: ResourceClass, id: string, type: string) => {
      const created: ResourceEntry = { clazz, type, parents: [] };
      this.resources.set(id, created);
      return created;
    };
    for (const provider of model.cloudProviders) entry("CloudProvider", provider.id, provider.type);
    for (const vm of model.vMs) entry("VM", vm.id, vm.type).parents.push(vm.cloudProvider);
    for (const method of model.methods) entry("Method", method.id, method.type);
    for (const component of model.internalComponents) {
      entry("InternalComponent", component.id, component.type).parents.push(...component.requiredComponents);
    }
    for (const component of model.internalComponents) {
      for (const methodId of component.providedMethods) this.resources.get(methodId)?.parents.push(component.id);
    }
  }

  /** Whether `resourceId` is a resource one of `targets` selects: by id, else by type, else by class. */
  selects(targets: readonly TargetSelector[], resourceId: string): boolean {
    const resource = this.resources.get(resourceId);
    if (!resource) return false;
    return targets.some((target) => {
      if (target.id !== undefined) return target.id === resourceId && target.class === resource.clazz;
      if (target.type !== undefined) return target.type === resource.type;
      return target.class === resource.clazz;
    });
  }

  /** The resources of `groupingClass` that `resourceId` groups into (none if the model does not link them). */
  groupsOf(resourceId: string, groupingClass: ResourceClass): string[] {
    let current = [resourceId];
    const groups = new Set<string>();
    while (current.length > 0) {
      const next = new Set<string>();
      for (const id of current) {
        const resource = this.resources.get(id);
        if (!resource) continue;
        if (resource.clazz === groupingClass) groups.add(id);
        else if (canGroup(resource.clazz, groupingClass)) for (const parent of resource.parents) next.add(parent);
      }
      current = [...next];
    }
    return [...groups];
  }
}
