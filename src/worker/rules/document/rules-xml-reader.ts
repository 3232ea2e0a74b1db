import { type FieldProblem, jsonPointer } from "../../../shared/problems";
import { rulesNamespace } from "./rule-schema";
import { SourcePositions } from "./source-positions";
import { parseXmlTree, type XmlAttribute, type XmlElement } from "./xml-tree";

/*
 * Reads the original's XML rule document into the JSON form, without judging its content: the
 * caller runs the schema on the result, so XML and JSON clients get the same problems at the same
 * JSON pointers. This reader reports only what cannot be carried into the JSON form: XML that is
 * not well-formed or past the limits of xml-tree.ts, elements it does not know or outside the
 * namespace, an element or parameter given twice, text where elements belong, parameters without a name.
 */

export type RulesXmlReading = { ok: true; document: unknown } | { ok: false; problems: FieldProblem[] };

type Pointer = readonly PropertyKey[];
type Fields = Record<string, unknown>;

export function readRulesXml(text: string): RulesXmlReading {
  const parsed = parseXmlTree(text);
  if ("problem" in parsed) return { ok: false, problems: [parsed.problem] };
  const reading = new Reading(text);
  const document = reading.document(parsed.root);
  return reading.problems.length > 0 ? { ok: false, problems: reading.problems } : { ok: true, document };
}

const xmlSpace = /^[ \t\r\n]*$/;

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * The text without XML white space at either end. Scanned by hand: a regular expression for the
 * trailing space retries at each space of a long run in the middle, which takes time quadratic in it.
 */
function trimXmlSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
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
  private positions: SourcePositions | undefined;

  constructor(private readonly source: string) {}

  document(root: XmlElement): Fields | undefined {
    if (root.local !== "monitoringRules" || root.uri !== rulesNamespace) {
      // A lone rule is the likeliest slip: the document around it was left out.
      const wrap = root.local === "monitoringRule" ? "; put the rule inside a <monitoringRules> element" : "";
      this.report(
        [],
        `The root element must be <monitoringRules> in the namespace ${rulesNamespace}; ${this.found(root)}${wrap}.`,
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

  private whereOffset(offset: number): string {
    this.positions ??= new SourcePositions(this.source);
    return this.positions.describe(offset);
  }
}
