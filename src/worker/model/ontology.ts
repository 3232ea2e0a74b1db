/*
 * The original system's ontology: its eleven classes, their hierarchy, and the fields by which a
 * resource refers to others. The schemas, the integrity checks, the store and the rules' grouping
 * all read these tables, so a class or a reference is declared here once.
 */

/** The classes of the model: the four of the grouped form first, then the rest of the original's. */
export const resourceClasses = [
  "CloudProvider",
  "Method",
  "VM",
  "InternalComponent",
  "Location",
  "Component",
  "ExternalComponent",
  "PaaSService",
  "Node",
  "Cluster",
  "Rack",
] as const;
export type ResourceClass = (typeof resourceClasses)[number];

/** The root of the hierarchy: every class is a Resource, and no resource is only that. */
export const rootClass = "Resource";

/** Each class's direct superclass, as in the original's ontology. */
const superclassOf = {
  CloudProvider: rootClass,
  Method: rootClass,
  VM: "ExternalComponent",
  InternalComponent: "Component",
  Location: rootClass,
  Component: rootClass,
  ExternalComponent: "Component",
  PaaSService: "ExternalComponent",
  Node: rootClass,
  Cluster: rootClass,
  Rack: rootClass,
} as const satisfies Record<ResourceClass, ResourceClass | typeof rootClass>;

export function isResourceClass(name: string): name is ResourceClass {
  return (resourceClasses as readonly string[]).includes(name);
}

/** Whether a resource of `clazz` is also one of `ancestor`: the class itself or one of its superclasses. */
export function isA(clazz: string, ancestor: string): boolean {
  for (let current: string = clazz; isResourceClass(current); current = superclassOf[current]) {
    if (current === ancestor) return true;
  }
  return ancestor === rootClass && isResourceClass(clazz);
}

/** The classes that are `ancestor` or below it, in the order of `resourceClasses`. */
export function classesUnder(ancestor: ResourceClass): ResourceClass[] {
  return resourceClasses.filter((clazz) => isA(clazz, ancestor));
}

/** The array of the grouped form that holds each class. */
export const groupOfClass = {
  CloudProvider: "cloudProviders",
  Method: "methods",
  VM: "vMs",
  InternalComponent: "internalComponents",
  Location: "locations",
  Component: "components",
  ExternalComponent: "externalComponents",
  PaaSService: "paaSServices",
  Node: "nodes",
  Cluster: "clusters",
  Rack: "racks",
} as const satisfies Record<ResourceClass, string>;
export type GroupName = (typeof groupOfClass)[ResourceClass];

/** A field that names other resources: one id, or a set of ids (an array, each listed once). */
export interface ReferenceField {
  target: ResourceClass;
  many: boolean;
}

const one = <T extends ResourceClass>(target: T) => ({ target, many: false }) as const;
const many = <T extends ResourceClass>(target: T) => ({ target, many: true }) as const;

/** Where an external component runs: shared by ExternalComponent and its subclasses. */
const placement = { cloudProvider: one("CloudProvider"), location: one("Location") };

/** The reference fields of each class; a reference names a resource of the target class or a subclass. */
export const referenceFields = {
  CloudProvider: {},
  Method: {},
  VM: placement,
  InternalComponent: { providedMethods: many("Method"), requiredComponents: many("Component") },
  Location: {},
  Component: {},
  ExternalComponent: placement,
  PaaSService: placement,
  Node: { vms: many("VM") },
  Cluster: { nodes: many("Node") },
  Rack: { nodes: many("Node") },
} as const satisfies Record<ResourceClass, Record<string, ReferenceField>>;

type FieldsOf<C extends ResourceClass> = keyof (typeof referenceFields)[C] & string;
export type ReferenceFieldName = { [C in ResourceClass]: FieldsOf<C> }[ResourceClass];

/** The reference fields of `clazz` with their names. */
export function referenceFieldsOf(clazz: ResourceClass): [ReferenceFieldName, ReferenceField][] {
  return Object.entries(referenceFields[clazz]) as [ReferenceFieldName, ReferenceField][];
}

export function withArticle(clazz: string): string {
  return /^[AEIOU]/.test(clazz) ? `an ${clazz}` : `a ${clazz}`;
}

/** "a, b and c". */
export function inWords(items: readonly string[], conjunction = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}
