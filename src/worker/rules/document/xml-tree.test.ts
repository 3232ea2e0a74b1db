import { describe, expect, it } from "vitest";
import { validOriginalDocuments, wrongAtosRule } from "./fixtures/original-documents";
import { maxXmlAttributes, maxXmlDepth, maxXmlElements, parseXmlTree, type XmlElement } from "./xml-tree";

function tree(text: string): XmlElement {
  const parsed = parseXmlTree(text);
  if ("problem" in parsed) throw new Error(`Expected a tree: ${parsed.problem.message}`);
  return parsed.root;
}

function problemOf(text: string): string {
  const parsed = parseXmlTree(text);
  if (!("problem" in parsed)) throw new Error("Expected a problem");
  expect(parsed.problem.path).toBe("");
  return parsed.problem.message;
}

const nested = (depth: number) => `${"<a>".repeat(depth)}${"</a>".repeat(depth)}`;

function depthOf(element: XmlElement): number {
  return 1 + Math.max(0, ...element.children.map(depthOf));
}

function countOf(element: XmlElement): number {
  return element.children.reduce((total, child) => total + countOf(child), 1);
}

function mostAttributes(element: XmlElement): number {
  return Math.max(element.attributes.length, ...element.children.map(mostAttributes));
}

describe("parseXmlTree", () => {
  it("reads elements with their namespace, attributes, text and where they start", () => {
    const root = tree('<r xmlns="urn:x" xmlns:p="urn:p">\n  <p:c a="1" p:b="2">t&amp;<![CDATA[<u>]]></p:c></r>');
    expect(root).toMatchObject({ name: "r", local: "r", uri: "urn:x", attributes: [], offset: 0 });
    expect(root.children).toEqual([
      {
        name: "p:c",
        local: "c",
        uri: "urn:p",
        attributes: [
          { name: "a", local: "a", uri: "", value: "1" },
          { name: "p:b", local: "b", uri: "urn:p", value: "2" },
        ],
        children: [],
        text: "t&<u>",
        offset: 36,
      },
    ]);
  });

  it("reads the original's documents, which stay far within every limit", () => {
    for (const text of [...Object.values(validOriginalDocuments), wrongAtosRule]) {
      const root = tree(text);
      expect(depthOf(root)).toBeLessThanOrEqual(5);
      expect(countOf(root)).toBeLessThan(maxXmlElements / 100);
      expect(mostAttributes(root)).toBeLessThan(maxXmlAttributes / 8);
    }
  });

  it(`takes elements nested ${maxXmlDepth} levels deep, and refuses one level more where it starts`, () => {
    expect(depthOf(tree(nested(maxXmlDepth)))).toBe(maxXmlDepth);
    expect(problemOf(nested(maxXmlDepth + 1))).toBe(
      `The XML nests elements more than ${maxXmlDepth} levels deep, at line 1, column ${3 * maxXmlDepth + 3}.`,
    );
  });

  it("stops at the first level too deep of a document nested far deeper", () => {
    expect(problemOf(nested(200_000))).toMatch(`more than ${maxXmlDepth} levels deep`);
  });

  it(`takes ${maxXmlElements} elements, and refuses one more`, () => {
    const document = (count: number) => `<r>${"<e/>".repeat(count - 1)}</r>`;
    expect(countOf(tree(document(maxXmlElements)))).toBe(maxXmlElements);
    expect(problemOf(document(maxXmlElements + 1))).toMatch(
      new RegExp(`^The XML holds more than ${maxXmlElements} elements; the next is at line 1, column \\d+\\.$`),
    );
    expect(problemOf(document(250_000))).toMatch(`more than ${maxXmlElements} elements`);
  });

  it(`takes ${maxXmlAttributes} attributes on an element, namespace declarations included, and refuses one more`, () => {
    const attributes = (count: number) => Array.from({ length: count }, (_, index) => `a${index}="v"`);
    expect(tree(`<r ${attributes(maxXmlAttributes).join(" ")}/>`).attributes).toHaveLength(maxXmlAttributes);
    expect(problemOf(`<r ${attributes(maxXmlAttributes + 1).join(" ")}/>`)).toMatch(
      `An element of the XML has more than ${maxXmlAttributes} attributes`,
    );
    const declarations = [...attributes(maxXmlAttributes - 1), 'xmlns:p="urn:p"', 'xmlns:q="urn:q"'];
    expect(problemOf(`<r ${declarations.join(" ")}/>`)).toMatch("attributes");
  });

  it("counts attributes per element", () => {
    const element = `<e ${Array.from({ length: maxXmlAttributes }, (_, index) => `a${index}="v"`).join(" ")}/>`;
    expect(tree(`<r>${element.repeat(3)}</r>`).children).toHaveLength(3);
  });

  it("refuses a DOCTYPE, so that no entity it declares is ever expanded", () => {
    const bomb = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>`;
    expect(problemOf(bomb)).toBe(
      "The XML has a DOCTYPE at line 1, column 83: a rule document needs none, and no entity it declares is expanded.",
    );
    expect(problemOf('<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>')).toMatch("DOCTYPE");
  });

  it("refuses XML that is not well-formed, saying where", () => {
    expect(problemOf("<r><a></r>")).toMatch(/^The XML is not well-formed at line 1, column \d+: .+\.$/);
    expect(problemOf("<r>&undefined;</r>")).toMatch("undefined entity");
  });
});
