/*
 * Building and updating the page's elements. Updates write only what changed, so that a refresh
 * that brings the same data touches nothing: no flicker, no reflow, no repeated announcement in
 * live regions.
 */

type Attributes = Record<string, string | number | boolean | undefined>;
export type Child = Node | string | number | null | undefined | false;

function applyAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
}

function appendChildren(element: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
}

/** An HTML element with attributes and children. */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  applyAttributes(element, attributes);
  appendChildren(element, children);
  return element;
}

const svgNamespace = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
export function svg<Tag extends keyof SVGElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[Tag] {
  const element = document.createElementNS(svgNamespace, tag);
  applyAttributes(element, attributes);
  appendChildren(element, children);
  return element;
}

export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Sets an attribute, or removes it for null. */
export function setAttribute(element: Element, name: string, value: string | null): void {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}

/** A page-unique id for an element, e.g. for aria-labelledby. */
let lastId = 0;
export function uniqueId(prefix: string): string {
  lastId += 1;
  return `${prefix}-${lastId}`;
}
