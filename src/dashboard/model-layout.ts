import type { ResourceClass } from "../worker/model/ontology";
import type { Model } from "./api-types";

/*
 * The model as a layered graph: columns in the order references run (where things are, what holds
 * the machines, the machines and services, the components that require them, the methods those
 * provide), each column ordered by the positions of what its resources are linked to in the columns
 * before it, so that edges cross as little as such a simple ordering allows. Empty columns are left
 * out, so a model of the four original classes keeps its four columns.
 */

/** The columns, each with the classes it draws. */
const columnClasses: readonly { title: string; classes: readonly ResourceClass[] }[] = [
  { title: "Providers and locations", classes: ["CloudProvider", "Location"] },
  { title: "Clusters and racks", classes: ["Cluster", "Rack"] },
  { title: "Nodes", classes: ["Node"] },
  { title: "VMs and services", classes: ["VM", "PaaSService", "ExternalComponent", "Component"] },
  { title: "Internal components", classes: ["InternalComponent"] },
  { title: "Methods", classes: ["Method"] },
];

/** Each class in the plural, the title of a column that holds only it. */
const pluralOf: Record<ResourceClass, string> = {
  CloudProvider: "Cloud providers",
  Location: "Locations",
  Cluster: "Clusters",
  Rack: "Racks",
  Node: "Nodes",
  VM: "VMs",
  PaaSService: "PaaS services",
  ExternalComponent: "External components",
  Component: "Components",
  InternalComponent: "Internal components",
  Method: "Methods",
};

/** The array of the model that holds each class. */
const arrayOfClass = {
  CloudProvider: "cloudProviders",
  Location: "locations",
  Cluster: "clusters",
  Rack: "racks",
  Node: "nodes",
  VM: "vMs",
  PaaSService: "paaSServices",
  ExternalComponent: "externalComponents",
  Component: "components",
  InternalComponent: "internalComponents",
  Method: "methods",
} as const satisfies Record<ResourceClass, keyof Model>;

export type EdgeKind = "runs-on" | "located-in" | "holds" | "requires" | "provides";

/** The kind of reference each reference field makes, in the order they are told. */
const edgeKindOfField = {
  cloudProvider: "runs-on",
  location: "located-in",
  vms: "holds",
  nodes: "holds",
  requiredComponents: "requires",
  providedMethods: "provides",
} as const satisfies Record<string, EdgeKind>;

/** A resource of any class, as the dashboard reads it. */
export interface ModelResource {
  id: string;
  clazz: ResourceClass;
  type?: string;
  numberOfCPUs?: number;
  references: { kind: EdgeKind; ids: string[] }[];
}

/** Every resource of the model, class by class in the order of the columns. */
export function modelResources(model: Model): ModelResource[] {
  return columnClasses.flatMap(({ classes }) =>
    classes.flatMap((clazz) =>
      (model[arrayOfClass[clazz]] as readonly Record<string, unknown>[]).map((element) => {
        const references = Object.entries(edgeKindOfField).flatMap(([field, kind]) => {
          const value = element[field];
          if (value === undefined) return [];
          return [{ kind, ids: typeof value === "string" ? [value] : (value as string[]) }];
        });
        return {
          id: element.id as string,
          clazz,
          ...(typeof element.type === "string" ? { type: element.type } : {}),
          ...(typeof element.numberOfCPUs === "number" ? { numberOfCPUs: element.numberOfCPUs } : {}),
          references,
        };
      }),
    ),
  );
}

export function cpuCount(count: number): string {
  return `${count} ${count === 1 ? "CPU" : "CPUs"}`;
}

export interface GraphNode {
  id: string;
  clazz: ResourceClass;
  /** The resource's type, if it has one. */
  type?: string;
  /** A line of detail: a VM's CPUs. */
  detail?: string;
  column: number;
  row: number;
}

/** A reference, from the resource that holds it to the one it names. */
export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface GraphColumn {
  title: string;
  nodes: GraphNode[];
}

export interface ModelGraph {
  columns: GraphColumn[];
  edges: GraphEdge[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `items` ordered by the mean row of the resources each is linked to; those linked to none last. */
function byMeanPosition<Item extends { id: string }>(
  items: readonly Item[],
  linked: (item: Item) => readonly string[],
  rowOf: ReadonlyMap<string, number>,
): Item[] {
  const mean = (item: Item) => {
    const rows = linked(item)
      .map((id) => rowOf.get(id))
      .filter((row) => row !== undefined);
    return rows.length === 0 ? Number.POSITIVE_INFINITY : rows.reduce((sum, row) => sum + row, 0) / rows.length;
  };
  return [...items].sort((a, b) => mean(a) - mean(b) || byId(a, b));
}

export function modelGraph(model: Model): ModelGraph {
  const resources = modelResources(model);
  const edges: GraphEdge[] = resources.flatMap((resource) =>
    resource.references.flatMap(({ kind, ids }) => ids.map((to) => ({ from: resource.id, to, kind }))),
  );
  const linked = new Map<string, string[]>();
  for (const edge of edges) {
    linked.set(edge.from, [...(linked.get(edge.from) ?? []), edge.to]);
    linked.set(edge.to, [...(linked.get(edge.to) ?? []), edge.from]);
  }

  // Rows of everything placed so far: a column is ordered by its links to the columns before it.
  const placedRows = new Map<string, number>();
  const columns: GraphColumn[] = [];
  for (const { title, classes } of columnClasses) {
    const members = resources.filter((resource) => classes.includes(resource.clazz));
    if (members.length === 0) continue;
    const present = classes.filter((clazz) => members.some((resource) => resource.clazz === clazz));
    const ordered = byMeanPosition(members, (resource) => linked.get(resource.id) ?? [], placedRows);
    const column = columns.length;
    const nodes = ordered.map((resource, row): GraphNode => {
      placedRows.set(resource.id, row);
      return {
        id: resource.id,
        clazz: resource.clazz,
        ...(resource.type === undefined ? {} : { type: resource.type }),
        ...(resource.numberOfCPUs === undefined ? {} : { detail: cpuCount(resource.numberOfCPUs) }),
        column,
        row,
      };
    });
    columns.push({ title: present.length === 1 ? pluralOf[present[0]!] : title, nodes });
  }
  return { columns, edges };
}
