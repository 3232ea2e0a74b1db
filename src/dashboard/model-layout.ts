import type { Model } from "./api-types";

/*
 * The model as a layered graph: four columns in the order references run (cloud providers, VMs,
 * internal components, methods), each column ordered by the positions of what its resources
 * refer to, so that edges cross as little as such a simple ordering allows.
 */

export type ColumnName = "CloudProvider" | "VM" | "InternalComponent" | "Method";
export const columnOrder: readonly ColumnName[] = ["CloudProvider", "VM", "InternalComponent", "Method"];

export interface GraphNode {
  id: string;
  clazz: ColumnName;
  type: string;
  /** A line of detail: a VM's CPUs. */
  detail?: string;
  column: number;
  row: number;
}

export type EdgeKind = "runs-on" | "requires" | "provides";

/** A reference, from the resource that holds it to the one it names. */
export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface ModelGraph {
  columns: GraphNode[][];
  edges: GraphEdge[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `items` ordered by the mean row of the resources each refers to; those referring to none last. */
function byMeanPosition<Item extends { id: string }>(
  items: readonly Item[],
  referred: (item: Item) => readonly string[],
  rowOf: ReadonlyMap<string, number>,
): Item[] {
  const mean = (item: Item) => {
    const rows = referred(item)
      .map((id) => rowOf.get(id))
      .filter((row) => row !== undefined);
    return rows.length === 0 ? Number.POSITIVE_INFINITY : rows.reduce((sum, row) => sum + row, 0) / rows.length;
  };
  return [...items].sort((a, b) => mean(a) - mean(b) || byId(a, b));
}

function rows<Item extends { id: string }>(items: readonly Item[]): Map<string, number> {
  return new Map(items.map((item, row) => [item.id, row]));
}

export function modelGraph(model: Model): ModelGraph {
  const providers = [...model.cloudProviders].sort(byId);
  const vms = byMeanPosition(model.vMs, (vm) => [vm.cloudProvider], rows(providers));
  const components = byMeanPosition(model.internalComponents, (component) => component.requiredComponents, rows(vms));
  const providerOf = new Map<string, string[]>();
  for (const component of components) {
    for (const method of component.providedMethods) {
      providerOf.set(method, [...(providerOf.get(method) ?? []), component.id]);
    }
  }
  const methods = byMeanPosition(model.methods, (method) => providerOf.get(method.id) ?? [], rows(components));

  const place = (column: number) => (node: Omit<GraphNode, "column" | "row">, row: number) => ({
    ...node,
    column,
    row,
  });
  const columns: GraphNode[][] = [
    providers
      .map((provider) => ({ id: provider.id, clazz: "CloudProvider" as const, type: provider.type }))
      .map(place(0)),
    vms
      .map((vm) => ({
        id: vm.id,
        clazz: "VM" as const,
        type: vm.type,
        detail: `${vm.numberOfCPUs} ${vm.numberOfCPUs === 1 ? "CPU" : "CPUs"}`,
      }))
      .map(place(1)),
    components
      .map((component) => ({ id: component.id, clazz: "InternalComponent" as const, type: component.type }))
      .map(place(2)),
    methods.map((method) => ({ id: method.id, clazz: "Method" as const, type: method.type })).map(place(3)),
  ];
  const edges: GraphEdge[] = [
    ...vms.map((vm) => ({ from: vm.id, to: vm.cloudProvider, kind: "runs-on" as const })),
    ...components.flatMap((component) => [
      ...component.requiredComponents.map((vm) => ({ from: component.id, to: vm, kind: "requires" as const })),
      ...component.providedMethods.map((method) => ({ from: component.id, to: method, kind: "provides" as const })),
    ]),
  ];
  return { columns, edges };
}
