import type { Model } from "./api-types";
import { h, setAttribute, svg, uniqueId } from "./dom";
import { formatCount } from "./format";
import { columnOrder, type EdgeKind, type GraphNode, modelGraph } from "./model-layout";

const width = 1000;
const nodeWidth = 188;
const nodeHeight = 48;
const rowPitch = 62;
const headerHeight = 40;
const padding = 8;
const gutter = (width - 2 * padding - columnOrder.length * nodeWidth) / (columnOrder.length - 1);

const columnTitles = ["Cloud providers", "VMs", "Internal components", "Methods"];
const edgeWords: Record<EdgeKind, string> = {
  "runs-on": "runs on (VM → cloud provider)",
  requires: "requires (component → VM)",
  provides: "provides (component → method)",
};

/** Cuts a label to what fits in a node, with an ellipsis; the node's tooltip has it whole. */
function fitted(text: string, characters: number): string {
  return text.length <= characters ? text : `${text.slice(0, characters - 1)}…`;
}

function nodeX(column: number): number {
  return padding + column * (nodeWidth + gutter);
}

/**
 * The model as a picture: its resources in four columns (cloud providers → VMs → internal
 * components → methods) and an arrow for each reference, drawn as SVG by hand. Pointing at a
 * resource brings out its references. Redrawn only when the model changed.
 */
export function modelPicture(): { element: HTMLElement; update(model: Model): void } {
  const markerIds = Object.fromEntries(
    (Object.keys(edgeWords) as EdgeKind[]).map((kind) => [kind, uniqueId(`arrow-${kind}`)]),
  ) as Record<EdgeKind, string>;
  const picture = svg("svg", { class: "model-picture", role: "img", viewBox: `0 0 ${width} 100` });
  const frame = h("div", { class: "model-frame" }, picture);
  const legend = h(
    "ul",
    { class: "model-legend" },
    ...(Object.entries(edgeWords) as [EdgeKind, string][]).map(([kind, words]) =>
      h(
        "li",
        {},
        svg(
          "svg",
          { width: 30, height: 10, "aria-hidden": "true", class: `edge-sample edge-${kind}` },
          svg("line", { x1: 1, y1: 5, x2: 29, y2: 5 }),
        ),
        words,
      ),
    ),
  );
  const element = h("figure", { class: "model-figure" }, frame, h("figcaption", {}, legend));
  let drawn = "";

  const highlight = (id: string | undefined) => {
    picture.classList.toggle("focusing", id !== undefined);
    for (const item of picture.querySelectorAll<SVGElement>("[data-ids]")) {
      const ids = item.dataset.ids?.split(" ") ?? [];
      item.classList.toggle("related", id !== undefined && ids.includes(id));
    }
  };

  return {
    element,
    update(model) {
      const signature = JSON.stringify(model);
      if (signature === drawn) return;
      drawn = signature;
      const graph = modelGraph(model);
      const tallest = Math.max(1, ...graph.columns.map((column) => column.length));
      const height = headerHeight + tallest * rowPitch + padding;
      const position = new Map<string, { x: number; y: number }>();
      for (const column of graph.columns) {
        const offset = ((tallest - column.length) * rowPitch) / 2;
        for (const node of column) {
          position.set(node.id, { x: nodeX(node.column), y: headerHeight + offset + node.row * rowPitch });
        }
      }

      const definitions = svg(
        "defs",
        {},
        ...(Object.keys(edgeWords) as EdgeKind[]).map((kind) =>
          svg(
            "marker",
            {
              id: markerIds[kind],
              class: `edge-${kind}`,
              viewBox: "0 0 10 10",
              refX: 9,
              refY: 5,
              markerWidth: 7,
              markerHeight: 7,
              orient: "auto-start-reverse",
            },
            svg("path", { d: "M0,0 L10,5 L0,10 z" }),
          ),
        ),
      );
      const headers = columnTitles.map((title, column) =>
        svg(
          "text",
          { class: "column-title", x: nodeX(column), y: 18 },
          `${title} (${formatCount(graph.columns[column]?.length ?? 0)})`,
        ),
      );
      const edges = graph.edges.flatMap((edge) => {
        const from = position.get(edge.from);
        const to = position.get(edge.to);
        if (!from || !to) return [];
        // From the side of the holder that faces the target, to the target's facing side.
        const rightward = to.x > from.x;
        const x1 = rightward ? from.x + nodeWidth : from.x;
        const x2 = rightward ? to.x : to.x + nodeWidth;
        const y1 = from.y + nodeHeight / 2;
        const y2 = to.y + nodeHeight / 2;
        const middle = (x1 + x2) / 2;
        return [
          svg("path", {
            class: `edge edge-${edge.kind}`,
            d: `M${x1},${y1} C${middle},${y1} ${middle},${y2} ${x2},${y2}`,
            "marker-end": `url(#${markerIds[edge.kind]})`,
            "data-ids": `${edge.from} ${edge.to}`,
          }),
        ];
      });
      const neighbours = new Map<string, string[]>();
      for (const edge of graph.edges) {
        neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
        neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
      }
      const nodes = graph.columns.flat().map((node: GraphNode) => {
        const { x, y } = position.get(node.id)!;
        const group = svg(
          "g",
          { class: `node node-${node.clazz}`, "data-ids": [node.id, ...(neighbours.get(node.id) ?? [])].join(" ") },
          svg("title", {}, `${node.clazz} ${node.id}, type ${node.type}${node.detail ? `, ${node.detail}` : ""}`),
          svg("rect", { x, y, width: nodeWidth, height: nodeHeight, rx: 8 }),
          svg("rect", { class: "node-stripe", x: x + 6, y: y + 9, width: 4, height: nodeHeight - 18, rx: 2 }),
          svg("text", { class: "node-id", x: x + 18, y: y + 20 }, fitted(node.id, 22)),
          svg(
            "text",
            { class: "node-type", x: x + 18, y: y + 37 },
            fitted(node.detail ? `${node.type} · ${node.detail}` : node.type, 26),
          ),
        );
        group.addEventListener("mouseenter", () => highlight(node.id));
        group.addEventListener("mouseleave", () => highlight(undefined));
        return group;
      });
      picture.replaceChildren(definitions, ...headers, svg("g", {}, ...edges), svg("g", {}, ...nodes));
      setAttribute(picture, "viewBox", `0 0 ${width} ${height}`);
      const counts = graph.columns.map((column, index) => `${column.length} ${columnTitles[index]!.toLowerCase()}`);
      setAttribute(
        picture,
        "aria-label",
        `The model: ${counts.join(", ")}, with ${graph.edges.length} references; every resource is listed in the table below.`,
      );
    },
  };
}
