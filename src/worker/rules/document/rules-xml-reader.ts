import { SaxesParser } from "saxes";
import { type FieldProblem, jsonPointer } from "../../../shared/problems";
import { rulesNamespace } from "./rule-schema";

/*
 * Reads the original's XML rule document into the JSON form, without judging its content: the
 * caller runs the schema on the result, so XML and JSON clients get the same problems at the same
 * JSON pointers. This reader reports only what cannot be carried into the JSON form: XML that is
 * not well-formed, elements it does not know or outside the namespace, an element or parameter given
 * twice, text where elements belong, parameters without a name.
 */

export type RulesXmlReading = { ok: true; document: unknown } | { ok: false; problems: FieldProblem[] };

interface XmlAttribute {
  /** As written, with its prefix. */
  readonly name: string;
  readonly local: string;
  readonly uri: string;
  readonly value: string;
}

interface XmlElement {
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

type Pointer = readonly PropertyKey[];
type Fields = Record<string, unknown>;

const xmlnsNamespace = "http://www.w3.org/2000/xmlns/";

export function readRulesXml(text: string): RulesXmlReading {
  const parsed = parseXml(text);
  if ("problem" in parsed) return { ok: false, problems: [parsed.problem] };
  const reading = new Reading(text);
  const document = reading.document(parsed.root);
  return reading.problems.length > 0 ? { ok: false, problems: reading.problems } : { ok: true, document };
}

/** Raised from saxes' error handler, so that parsing stops at the first error. */
class NotWellFormed extends Error {
  constructor(readonly problem: FieldProblem) {
    super(problem.message);
  }
}

function parseXml(text: string): { root: XmlElement } | { problem: FieldProblem } {
  const parser = new SaxesParser<{ xmlns: true }>({ xmlns: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  let tagOffset = 0;

  parser.on("error", (error) => {
    // saxes prefixes its message with "line:column: "; the problem says where in words instead.
    const reason = error.message.replace(/^\d+:\d+: /, "").replace(/\.$/, "");
    const where = `line ${parser.line}, column ${Math.max(parser.column, 1)}`;
    throw new NotWellFormed({ path: "", message: `The XML is not well-formed at ${where}: ${reason}.` });
  });
  parser.on("opentagstart", () => {
    // The parser has just read the tag's name and the character after it; names hold no "<".
    tagOffset = text.lastIndexOf("<", parser.position - 1);
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
    if (error instanceof NotWellFormed) return { problem: error.problem };
    throw error;
  }
  // A well-formed document has a root; saxes reports one without it.
  return { root: root! };
}

const xmlSpace = /^[ \t\r\n]*$/;

function trimXmlSpace(text: string): string {
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
}

/** A decimal whole number becomes a number; anything else stays a string for the schema to refuse. */
function wholeNumber(value: string): unknown {
  const trimmed = trimXmlSpace(value);
  return /^[+]?\d+$/.test(trimmed) ? Number(trimmed) : value;
}

/** The lexical forms of xsd:boolean; anything else stays a string for the schema to refuse. */
function xsdBoolean(value: string): unknown {
  const trimmed = trimXmlSpace(value);
  if (trimmed === "true" || trimmed === "1") return true;
  if (trimmed === "false" || trimmed === "0") return false;
  return value;
}

/** Sets a field even if its name is `__proto__`, which an assignment would take as the prototype. */
function setField(fields: Fields, name: string, value: unknown): void {
  Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
}

interface AttributeRules {
  /** How an attribute's text becomes the field's value; the others stay strings. */
  conversions?: Readonly<Record<string, (value: string) => unknown>>;
  /** Fields of the JSON form that XML holds elsewhere, each with where. */
  elsewhere?: Readonly<Record<string, string>>;
}

type ChildReader = (child: XmlElement, at: Pointer) => unknown;

const parameterHolderElsewhere = { parameters: "in <parameter> elements" };

/** The conversion of one document, collecting the problems it finds on the way. */
class Reading {
  readonly problems: FieldProblem[] = [];
  private lineStarts: number[] | undefined;

  constructor(private readonly source: string) {}

  document(root: XmlElement): Fields | undefined {
    if (root.local !== "monitoringRules" || root.uri !== rulesNamespace) {
      this.report(
        [],
        `The root element must be <monitoringRules> in the namespace ${rulesNamespace}; ${this.found(root)}.`,
      );
      return undefined;
    }
    const fields = this.attributeFields(root, [], { elsewhere: { monitoringRules: "in <monitoringRule> elements" } });
    setField(fields, "monitoringRules", this.items(root, ["monitoringRules"], "monitoringRule", this.rule));
    return fields;
  }

  private readonly rule = (element: XmlElement, at: Pointer): Fields => {
    const fields = this.attributeFields(element, at, {
      conversions: { timeStep: wholeNumber, timeWindow: wholeNumber, startEnabled: xsdBoolean },
      elsewhere: {
        monitoredTargets: "in a <monitoredTargets> element",
        collectedMetric: "in a <collectedMetric> element",
        metricAggregation: "in a <metricAggregation> element",
        condition: "in a <condition> element",
        actions: "in an <actions> element",
        allowedLatenessSeconds: "only in the JSON form of a rule",
      },
    });
    this.childFields(element, at, fields, {
      monitoredTargets: (child, childAt) => this.items(child, childAt, "monitoredTarget", this.target),
      collectedMetric: this.parameterHolder,
      metricAggregation: this.parameterHolder,
      condition: (child, childAt) => this.textContent(child, childAt, this.ownAttributes(child, childAt)),
      actions: (child, childAt) => this.items(child, childAt, "action", this.parameterHolder),
    });
    return fields;
  };

  private readonly target = (element: XmlElement, at: Pointer): Fields => {
    const fields = this.attributeFields(element, at, {});
    this.childFields(element, at, fields, {});
    return fields;
  };

  private readonly parameterHolder = (element: XmlElement, at: Pointer): Fields => {
    const fields = this.attributeFields(element, at, { elsewhere: parameterHolderElsewhere });
    setField(fields, "parameters", this.parameters(element, [...at, "parameters"]));
    return fields;
  };

  private parameters(element: XmlElement, at: Pointer): Fields {
    const parameters: Fields = {};
    const firstOffsets = new Map<string, number>();
    this.checkNoText(element, at);
    for (const child of element.children) {
      if (!this.isExpected(child, "parameter", at, `<${element.name}>`)) continue;
      const attributes = this.ownAttributes(child, at);
      const name = attributes.get("name")?.value ?? "";
      if (name === "") {
        this.report(at, `The <${child.name}> at ${this.where(child)} has no name attribute.`);
        continue;
      }
      const parameterAt = [...at, name];
      const first = firstOffsets.get(name);
      if (first !== undefined) {
        const second = `${this.where(child)}; the first is at ${this.whereOffset(first)}`;
        this.report(parameterAt, `Parameter "${name}" is given twice: again at ${second}.`);
        continue;
      }
      firstOffsets.set(name, child.offset);
      setField(parameters, name, this.textContent(child, parameterAt, attributes, ["name"]));
    }
    return parameters;
  }

  /** The trimmed text of an element that holds text only, with no attributes but `allowed`. */
  private textContent(
    element: XmlElement,
    at: Pointer,
    attributes: ReadonlyMap<string, XmlAttribute>,
    allowed: readonly string[] = [],
  ): string {
    for (const attribute of attributes.values()) {
      if (allowed.includes(attribute.local)) continue;
      this.report(at, `Unknown attribute "${attribute.name}" of the <${element.name}> at ${this.where(element)}.`);
    }
    for (const child of element.children) {
      this.report(at, `The <${element.name}> holds text only; found <${child.name}> at ${this.where(child)}.`);
    }
    return trimXmlSpace(element.text);
  }

  /** The items of an element that is a list: the JSON form's array. */
  private items(element: XmlElement, at: Pointer, itemName: string, readItem: ChildReader): unknown[] {
    this.checkNoText(element, at);
    const items: unknown[] = [];
    for (const child of element.children) {
      if (this.isExpected(child, itemName, at, `<${element.name}>`)) items.push(readItem(child, [...at, items.length]));
    }
    return items;
  }

  /** The fields an object's child elements give, each at most once. */
  private childFields(
    element: XmlElement,
    at: Pointer,
    fields: Fields,
    readers: Readonly<Record<string, ChildReader>>,
  ) {
    this.checkNoText(element, at);
    const firstOffsets = new Map<string, number>();
    for (const child of element.children) {
      const childAt = [...at, child.local];
      if (!this.inNamespace(child, childAt)) continue;
      const reader = Object.hasOwn(readers, child.local) ? readers[child.local] : undefined;
      if (reader === undefined) {
        this.report(childAt, `Unknown element <${child.name}> at ${this.where(child)} in <${element.name}>.`);
        continue;
      }
      const first = firstOffsets.get(child.local);
      if (first !== undefined) {
        const second = `${this.where(child)}; the first is at ${this.whereOffset(first)}`;
        this.report(childAt, `A <${element.name}> holds one <${child.name}>; found another at ${second}.`);
        continue;
      }
      firstOffsets.set(child.local, child.offset);
      setField(fields, child.local, reader(child, childAt));
    }
  }

  /**
   * The element's attributes as fields, converted where the JSON form has another type than string.
   * Unknown ones are kept, so that the schema names them at their pointer as it does in JSON.
   */
  private attributeFields(element: XmlElement, at: Pointer, rules: AttributeRules): Fields {
    const fields: Fields = {};
    for (const [name, attribute] of this.ownAttributes(element, at)) {
      const elsewhere = rules.elsewhere && Object.hasOwn(rules.elsewhere, name) ? rules.elsewhere[name] : undefined;
      if (elsewhere !== undefined) {
        this.report([...at, name], `"${attribute.name}" is not an attribute of <${element.name}>: it is ${elsewhere}.`);
        continue;
      }
      const convert = rules.conversions && Object.hasOwn(rules.conversions, name) ? rules.conversions[name] : undefined;
      setField(fields, name, convert ? convert(attribute.value) : attribute.value);
    }
    return fields;
  }

  /**
   * The attributes that belong to the rule document, by local name: those without a namespace and,
   * equally, those in the rules namespace. Attributes of other namespaces (xsi:…) are not ours.
   */
  private ownAttributes(element: XmlElement, at: Pointer): Map<string, XmlAttribute> {
    const attributes = new Map<string, XmlAttribute>();
    for (const attribute of element.attributes) {
      if (attribute.uri !== "" && attribute.uri !== rulesNamespace) continue;
      const earlier = attributes.get(attribute.local);
      if (earlier) {
        const both = `"${earlier.name}" and "${attribute.name}"`;
        this.report([...at, attribute.local], `The <${element.name}> at ${this.where(element)} gives ${both}.`);
        continue;
      }
      attributes.set(attribute.local, attribute);
    }
    return attributes;
  }

  private isExpected(child: XmlElement, expected: string, at: Pointer, parent: string): boolean {
    if (!this.inNamespace(child, at)) return false;
    if (child.local === expected) return true;
    this.report(
      at,
      `Unknown element <${child.name}> at ${this.where(child)}: a ${parent} holds <${expected}> elements.`,
    );
    return false;
  }

  private inNamespace(element: XmlElement, at: Pointer): boolean {
    if (element.uri === rulesNamespace) return true;
    const where = `The element <${element.name}> at ${this.where(element)}`;
    this.report(at, `${where} is not in the namespace ${rulesNamespace}; ${this.found(element)}.`);
    return false;
  }

  private checkNoText(element: XmlElement, at: Pointer): void {
    if (!xmlSpace.test(element.text)) {
      this.report(at, `The <${element.name}> at ${this.where(element)} holds elements only, not text.`);
    }
  }

  private found(element: XmlElement): string {
    const namespace = element.uri === "" ? "no namespace" : `the namespace ${element.uri}`;
    return `found <${element.name}> in ${namespace}`;
  }

  private report(at: Pointer, message: string): void {
    this.problems.push({ path: jsonPointer(at), message });
  }

  private where(element: XmlElement): string {
    return this.whereOffset(element.offset);
  }

  /** Line and column as XML counts them: any of CR LF, CR and LF ends a line; columns count characters. */
  private whereOffset(offset: number): string {
    this.lineStarts ??= lineStartsOf(this.source);
    const line = lastAtOrBefore(this.lineStarts, offset);
    const column = Array.from(this.source.slice(this.lineStarts[line], offset)).length + 1;
    return `line ${line + 1}, column ${column}`;
  }
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (const lineEnd of source.matchAll(/\r\n|\r|\n/g)) starts.push(lineEnd.index + lineEnd[0].length);
  return starts;
}

/** The index of the last of the ascending `values` that is at most `limit`, given that the first one is. */
function lastAtOrBefore(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (values[middle]! <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}
