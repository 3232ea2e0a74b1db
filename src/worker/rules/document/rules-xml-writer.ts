import { type InstalledRule, rulesNamespace } from "./rule-schema";

/*
 * Writes installed rules as the original's XML rule document. Each rule's `startEnabled` is whether
 * it runs now, so that a document read from the service and posted back installs the rules as they
 * are. `allowedLatenessSeconds` has no place in the original's XML; it stays in the JSON form.
 */

const indentUnit = "  ";

export function writeRulesXml(rules: readonly InstalledRule[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const rootAttributes = { xmlns: rulesNamespace };
  if (rules.length === 0) {
    lines.push(emptyElement(0, "monitoringRules", rootAttributes));
  } else {
    lines.push(startTag(0, "monitoringRules", rootAttributes));
    for (const rule of rules) lines.push(...ruleLines(rule));
    lines.push(endTag(0, "monitoringRules"));
  }
  return `${lines.join("\n")}\n`;
}

type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

function ruleLines(rule: InstalledRule): string[] {
  const lines = [
    startTag(1, "monitoringRule", {
      id: rule.id,
      label: rule.label,
      relatedQosConstraintId: rule.relatedQosConstraintId,
      startEnabled: rule.enabled,
      timeStep: rule.timeStep,
      timeWindow: rule.timeWindow,
    }),
    startTag(2, "monitoredTargets", {}),
    ...rule.monitoredTargets.map((target) =>
      emptyElement(3, "monitoredTarget", { class: target.class, type: target.type, id: target.id }),
    ),
    endTag(2, "monitoredTargets"),
    ...parameterHolderLines(
      2,
      "collectedMetric",
      { metricName: rule.collectedMetric.metricName },
      rule.collectedMetric.parameters,
    ),
  ];
  if (rule.metricAggregation) {
    const { aggregateFunction, groupingClass, parameters } = rule.metricAggregation;
    lines.push(...parameterHolderLines(2, "metricAggregation", { aggregateFunction, groupingClass }, parameters));
  }
  if (rule.condition !== undefined) lines.push(`${indent(2)}<condition>${escapeText(rule.condition)}</condition>`);
  lines.push(startTag(2, "actions", {}));
  for (const action of rule.actions)
    lines.push(...parameterHolderLines(3, "action", { name: action.name }, action.parameters));
  lines.push(endTag(2, "actions"), endTag(1, "monitoringRule"));
  return lines;
}

function parameterHolderLines(
  depth: number,
  name: string,
  attributes: Attributes,
  parameters: Readonly<Record<string, string>>,
): string[] {
  const entries = Object.entries(parameters);
  if (entries.length === 0) return [emptyElement(depth, name, attributes)];
  return [
    startTag(depth, name, attributes),
    ...entries.map(
      ([parameter, value]) =>
        `${indent(depth + 1)}<parameter name="${escapeAttribute(parameter)}">${escapeText(value)}</parameter>`,
    ),
    endTag(depth, name),
  ];
}

function indent(depth: number): string {
  return indentUnit.repeat(depth);
}

function startTag(depth: number, name: string, attributes: Attributes): string {
  return `${indent(depth)}<${name}${attributeList(attributes)}>`;
}

function emptyElement(depth: number, name: string, attributes: Attributes): string {
  return `${indent(depth)}<${name}${attributeList(attributes)}/>`;
}

function endTag(depth: number, name: string): string {
  return `${indent(depth)}</${name}>`;
}

function attributeList(attributes: Attributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join("");
}

/*
 * XML 1.0 cannot hold the other C0 controls, U+FFFE, U+FFFF or a lone surrogate, not even as
 * character references. The schema lets a string hold them, so they are written as U+FFFD: a
 * document the service answers with must always be well-formed.
 */
const notXmlCharacter = /[^\t\n\r\u{20}-\u{D7FF}\u{E000}-\u{FFFD}\u{10000}-\u{10FFFF}]/gu;

function xmlCharacters(value: string): string {
  return value.replace(notXmlCharacter, "\u{FFFD}");
}

/** A carriage return is escaped, since a parser would read a raw one as a line feed. */
function escapeText(value: string): string {
  return xmlCharacters(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\r", "&#13;");
}

/** Whitespace is escaped, since a parser would read each raw tab, line feed or carriage return as a space. */
function escapeAttribute(value: string): string {
  return escapeText(value).replaceAll('"', "&quot;").replaceAll("\t", "&#9;").replaceAll("\n", "&#10;");
}
