import { SaxesParser } from "saxes";
import { maxJsonDepth } from "../../../shared/http/json-text";
import type { FieldProblem } from "../../../shared/problems";

/*
 * An XML text read into a tree of elements, with the work bounded by the text's length: a request
 * body is read whole before anything is judged, so a hostile document must be stopped while it is
 * read, at the first element past a limit. The limits are far above what a rule document needs.
 */

/** The deepest nesting of elements: the same as for JSON bodies. The original's documents nest five levels. */
export const maxXmlDepth = maxJsonDepth;

/**
 * The most elements a document may hold: a hundred times the original's largest example (97
 * elements in eight rules), room for several hundred rules in one request.
 */
export const maxXmlElements = 10_000;

/** The most attributes of one element, namespace declarations included. The original's rules carry at most seven. */
export const maxXmlAttributes = 64;

export interface XmlAttribute {
  /** As written, with its prefix. */
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly value: string;
}

export interface XmlElement {
  /** As written, with its prefix. */
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: readonly XmlAttribute[];
  readonly children: XmlElement[];
  /** The character data directly inside the element, entities and CDATA sections decoded. */
  text: string;
  /** Where its start tag begins in the source, to tell the client where to look. */
  readonly offset: number;
}

const xmlnsNamespace = "http://www.w3.org/2000/xmlns/";

/** Raised from saxes' handlers, so that parsing stops at the first problem. */
class ReadingStopped extends Error {
  constructor(readonly problem: FieldProblem) {
    super(problem.message);
  }
}

/**
 * The document's root element, or the one problem that stopped the reading: XML that is not
 * well-formed, a DOCTYPE (the only place entities could be declared: none is ever expanded), or a
 * document past one of the limits.
 */
export function parseXmlTree(text: string): { root: XmlElement } | { problem: FieldProblem } {
  const parser = new SaxesParser<{ xmlns: true }>({ xmlns: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  let tagOffset = 0;
  let elements = 0;
  let attributes = 0;

  const where = () => `line ${parser.line}, column ${Math.max(parser.column, 1)}`;
  const stop = (message: string): never => {
    throw new ReadingStopped({ path: "", message });
  };

  parser.on("error", (error) => {
    // saxes prefixes its message with "line:column: "; the problem says where in words instead.
    const reason = error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
    stop(`The XML is not well-formed at ${where()}: ${reason}.`);
  });
  parser.on("doctype", () =>
    stop(`The XML has a DOCTYPE at ${where()}: a rule document needs none, and no entity it declares is expanded.`),
  );
  parser.on("opentagstart", () => {
    // Checked before saxes resolves the element's namespace, which looks through every open element.
    if (open.length >= maxXmlDepth) stop(`The XML nests elements more than ${maxXmlDepth} levels deep, at ${where()}.`);
    elements += 1;
    if (elements > maxXmlElements)
      stop(`The XML holds more than ${maxXmlElements} elements; the next is at ${where()}.`);
    attributes = 0;
    // The parser has just read the tag's name and the character after it; names hold no "<".
    tagOffset = text.lastIndexOf("<", parser.position - 1);
  });
  parser.on("attribute", () => {
    attributes += 1;
    if (attributes > maxXmlAttributes) {
      stop(`An element of the XML has more than ${maxXmlAttributes} attributes, at ${where()}.`);
    }
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = {
      name: tag.name,
      local: tag.local,
      uri: tag.uri,
      attributes: Object.values(tag.attributes)
        .filter((attribute) => attribute.uri !== xmlnsNamespace)
        .map(({ name, local, uri, value }) => ({ name, local, uri, value })),
      children: [],
      text: "",
      offset: tagOffset,
    };
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    open.push(element);
  });
  parser.on("closetag", () => {
    open.pop();
  });
  const addText = (data: string) => {
    const element = open.at(-1);
    if (element) element.text += data;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof ReadingStopped) return { problem: error.problem };
    throw error;
  }
  // A well-formed document has a root; saxes reports one without it.
  return { root: root! };
}
