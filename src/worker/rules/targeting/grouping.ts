import type { ReferenceFieldName, ResourceClass } from "../../model/ontology";

/*
 * Which classes a rule may target and group by, and how a resource of one class groups into resources
 * of another: the original's grouping table, as steps along the model's references. The original's
 * table, which grouping.test.ts keeps as written, is the transitive closure of these steps.
 */

/** The classes a rule may name in a target or as its grouping class: the original's grouping categories. */
export const ruleClasses = [
  "CloudProvider",
  "Location",
  "Method",
  "InternalComponent",
  "PaaSService",
  "VM",
  "Node",
  "Cluster",
  "Rack",
] as const satisfies readonly ResourceClass[];
export type RuleClass = (typeof ruleClasses)[number];

export function isRuleClass(name: string): name is RuleClass {
  return (ruleClasses as readonly string[]).includes(name);
}

/**
 * One step of grouping: a resource of class `from` groups into the resources of the `into` classes
 * that it names in its own reference `field`, or (`heldIn`) whose reference field of that name lists it.
 */
export type GroupingStep = { from: RuleClass; into: readonly RuleClass[] } & (
  | { field: ReferenceFieldName }
  | { heldIn: ReferenceFieldName }
);

export const groupingSteps: readonly GroupingStep[] = [
  { from: "Method", into: ["InternalComponent"], heldIn: "providedMethods" },
  // Components that require components: grouping goes on through them to what they run on.
  { from: "InternalComponent", into: ["InternalComponent", "VM", "PaaSService"], field: "requiredComponents" },
  { from: "VM", into: ["CloudProvider"], field: "cloudProvider" },
  { from: "VM", into: ["Location"], field: "location" },
  { from: "VM", into: ["Node"], heldIn: "vms" },
  { from: "PaaSService", into: ["CloudProvider"], field: "cloudProvider" },
  { from: "PaaSService", into: ["Location"], field: "location" },
  { from: "Node", into: ["Cluster", "Rack"], heldIn: "nodes" },
];

/** The classes each rule class groups into besides itself, in the order of `ruleClasses`. */
const groupingsOfClass = new Map<ResourceClass, RuleClass[]>(
  ruleClasses.map((from) => {
    const reached = new Set<ResourceClass>();
    const pending: ResourceClass[] = [from];
    for (let clazz = pending.pop(); clazz !== undefined; clazz = pending.pop()) {
      for (const step of groupingSteps) {
        if (step.from !== clazz) continue;
        for (const into of step.into) {
          if (!reached.has(into)) pending.push(into);
          reached.add(into);
        }
      }
    }
    return [from, ruleClasses.filter((into) => into !== from && reached.has(into))];
  }),
);

/** The classes a resource of `from` groups into, besides its own. */
export function groupingsOf(from: ResourceClass): readonly RuleClass[] {
  return groupingsOfClass.get(from) ?? [];
}

/** Whether data about resources of `from` can be grouped by `into`: the same class always can. */
export function canGroup(from: ResourceClass, into: ResourceClass): boolean {
  return from === into || groupingsOf(from).includes(into as RuleClass);
}
