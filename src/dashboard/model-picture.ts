import type { Model } from "./api-types";
import { h, setAttribute, svg, uniqueId } from "./dom";
import { formatCount } from "./format";
import { type EdgeKind, type GraphNode, modelGraph } from "./model-layout";

const nodeWidth = 188;
const nodeHeight = 48;
const rowPitch = 62;
const headerHeight = 40;
const padding = 8;
const gutter = 77;
/** How far a reference between two resources of one column bows out to the left. */
const loopReach = 40;

const edgeWords: Record<EdgeKind, string> = {
  "runs-on": "runs on (→ cloud provider)",
  "located-in": "is located in (→ location)",
  holds: "holds (rack or cluster → node, node → VM)",
  requires: "requires (component → component)",
  provides: "provides (component → method)",
};

function typeWords(node: GraphNode): string {
  return node.type === undefined ? "no type" : `type ${node.type}`;
}

/** Cuts a label to what fits in a node, with an ellipsis; the node's tooltip has it whole. */
function fitted(text: string, characters: number): string {
  return text.length <= characters ? text : `${text.slice(0, characters - 1)}…`;
}

function nodeX(column: number): number {
  return padding + column * (nodeWidth + gutter);
}

function widthOf(columns: number): number {
  return 2 * padding + columns * nodeWidth + Math.max(0, columns - 1) * gutter;
}

function legendEntry(kind: EdgeKind): HTMLElement {
  return h(
    "li",
    {},
    svg(
      "svg",
      { width: 30, height: 10, "aria-hidden": "true", class: `edge-sample edge-${kind}` },
      svg("line", { x1: 1, y1: 5, x2: 29, y2: 5 }),
    ),
    edgeWords[kind],
  );
}

/**
 * The model as a picture: its resources in columns (where things are → what holds the machines →
 * the machines and services → internal components → methods, each column drawn only when the
 * model has resources of its classes) and an arrow for each reference, drawn as SVG by hand.
 * Pointing at a resource brings out its references. Redrawn only when the model changed.
 */
export function modelPicture(): { element: HTMLElement; update(model: Model): void } {
  const markerIds = Object.fromEntries(
    (Object.keys(edgeWords) as EdgeKind[]).map((kind) => [kind, uniqueId(`arrow-${kind}`)]),
  ) as Record<EdgeKind, string>;
  const picture = svg("svg", { class: "model-picture", role: "img", viewBox: `0 0 ${widthOf(1)} 100` });
  const frame = h("div", { class: "model-frame" }, picture);
  const legend = h("ul", { class: "model-legend" });
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
      const width = widthOf(graph.columns.length);
      const tallest = Math.max(1, ...graph.columns.map((column) => column.nodes.length));
      const height = headerHeight + tallest * rowPitch + padding;
      const position = new Map<string, { x: number; y: number }>();
      for (const { nodes: column } of graph.columns) {
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
      const headers = graph.columns.map(({ title, nodes: column }, index) =>
        svg("text", { class: "column-title", x: nodeX(index), y: 18 }, `${title} (${formatCount(column.length)})`),
      );
      const edges = graph.edges.flatMap((edge) => {
        const from = position.get(edge.from);
        const to = position.get(edge.to);
        if (!from || !to) return [];
        const y1 = from.y + nodeHeight / 2;
        const y2 = to.y + nodeHeight / 2;
        // From the side of the holder that faces the target, to the target's facing side; within
        // one column (a component requiring another), from left side to left side, bowing out.
        const sameColumn = to.x === from.x;
        const rightward = to.x > from.x;
        const x1 = rightward ? from.x + nodeWidth : from.x;
        const x2 = rightward || sameColumn ? to.x : to.x + nodeWidth;
        const bend = sameColumn ? x1 - loopReach : (x1 + x2) / 2;
        return [
          svg("path", {
            class: `edge edge-${edge.kind}`,
            d: `M${x1},${y1} C${bend},${y1} ${bend},${y2} ${x2},${y2}`,
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
      const nodes = graph.columns
        .flatMap((column) => column.nodes)
        .map((node: GraphNode) => {
          const { x, y } = position.get(node.id)!;
          const group = svg(
            "g",
            { class: `node node-${node.clazz}`, "data-ids": [node.id, ...(neighbours.get(node.id) ?? [])].join(" ") },
            svg("title", {}, [`${node.clazz} ${node.id}`, typeWords(node), node.detail].filter(Boolean).join(", ")),
            svg("rect", { x, y, width: nodeWidth, height: nodeHeight, rx: 8 }),
            svg("rect", { class: "node-stripe", x: x + 6, y: y + 9, width: 4, height: nodeHeight - 18, rx: 2 }),
            svg("text", { class: "node-id", x: x + 18, y: y + 20 }, fitted(node.id, 22)),
            svg(
              "text",
              { class: "node-type", x: x + 18, y: y + 37 },
              fitted([node.type ?? "no type", node.detail].filter(Boolean).join(" · "), 26),
            ),
          );
          group.addEventListener("mouseenter", () => highlight(node.id));
          group.addEventListener("mouseleave", () => highlight(undefined));
          return group;
        });
      picture.replaceChildren(definitions, ...headers, svg("g", {}, ...edges), svg("g", {}, ...nodes));
      setAttribute(picture, "viewBox", `0 0 ${width} ${height}`);
      const kinds = (Object.keys(edgeWords) as EdgeKind[]).filter((kind) =>
        graph.edges.some((edge) => edge.kind === kind),
      );
      legend.replaceChildren(...kinds.map(legendEntry));
      const counts = graph.columns.map(({ title, nodes: column }) => `${column.length} ${title.toLowerCase()}`);
      setAttribute(
        picture,
        "aria-label",
        `The model: ${counts.join(", ")}, with ${graph.edges.length} references; every resource is listed in the table below.`,
      );
    },
  };
}
