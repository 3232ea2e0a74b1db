import { describe, expect, it } from "vitest";
import { validOriginalDocuments } from "./fixtures/original-documents";
import { type InstalledRule, type RuleDefinition, rulesDocumentSchema, rulesNamespace } from "./rule-schema";
import { readRulesXml } from "./rules-xml-reader";
import { writeRulesXml } from "./rules-xml-writer";

const validFixtures = validOriginalDocuments;

/** The rules of an XML document, read and validated as the service does. */
function rulesOf(xml: string): RuleDefinition[] {
  const reading = readRulesXml(xml);
  if (!reading.ok) throw new Error(`Expected the XML to be read: ${JSON.stringify(reading.problems)}`);
  return rulesDocumentSchema.parse(reading.document).monitoringRules;
}

function installed(rule: RuleDefinition, enabled = rule.startEnabled): InstalledRule {
  return { ...rule, enabled };
}

const minimalRule: InstalledRule = {
  id: "rule",
  startEnabled: true,
  enabled: true,
  timeStep: 60,
  timeWindow: 60,
  allowedLatenessSeconds: 5,
  monitoredTargets: [{ class: "Method", type: "register" }],
  collectedMetric: { metricName: "ResponseTime", parameters: {} },
  actions: [{ name: "OutputMetric", parameters: { metric: "Out", value: "METRIC" } }],
};

describe("writeRulesXml", () => {
  it.each(Object.entries(validFixtures))("writes the rules of %s so that they read back the same", (_name, xml) => {
    const rules = rulesOf(xml);
    expect(rulesOf(writeRulesXml(rules.map((rule) => installed(rule))))).toEqual(rules);
  });

  it("writes a rule's every field, indented, in the rules namespace", () => {
    const rule: InstalledRule = {
      ...minimalRule,
      label: "Average",
      relatedQosConstraintId: "qos-1",
      collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "1" } },
      metricAggregation: { aggregateFunction: "Average", groupingClass: "Method", parameters: {} },
      condition: "METRIC > 2500.0",
    };
    expect(writeRulesXml([rule])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<monitoringRules xmlns="${rulesNamespace}">`,
        '  <monitoringRule id="rule" label="Average" relatedQosConstraintId="qos-1" startEnabled="true" timeStep="60" timeWindow="60">',
        "    <monitoredTargets>",
        '      <monitoredTarget class="Method" type="register"/>',
        "    </monitoredTargets>",
        '    <collectedMetric metricName="ResponseTime">',
        '      <parameter name="samplingProbability">1</parameter>',
        "    </collectedMetric>",
        '    <metricAggregation aggregateFunction="Average" groupingClass="Method"/>',
        "    <condition>METRIC &gt; 2500.0</condition>",
        "    <actions>",
        '      <action name="OutputMetric">',
        '        <parameter name="metric">Out</parameter>',
        '        <parameter name="value">METRIC</parameter>',
        "      </action>",
        "    </actions>",
        "  </monitoringRule>",
        "</monitoringRules>",
        "",
      ].join("\n"),
    );
  });

  it("writes an empty document for no rules", () => {
    const xml = writeRulesXml([]);
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>\n<monitoringRules xmlns="${rulesNamespace}"/>\n`);
    expect(rulesOf(xml)).toEqual([]);
  });

  it("writes whether a rule runs now as startEnabled", () => {
    const xml = writeRulesXml([installed({ ...minimalRule, startEnabled: true }, false)]);
    expect(xml).toContain('startEnabled="false"');
    expect(rulesOf(xml)[0]?.startEnabled).toBe(false);
  });

  it("leaves the allowed lateness to the JSON form", () => {
    const xml = writeRulesXml([{ ...minimalRule, allowedLatenessSeconds: 30 }]);
    expect(xml).not.toContain("allowedLateness");
    expect(xml).not.toContain("30");
  });

  it("escapes markup in attributes and text", () => {
    const rule: InstalledRule = {
      ...minimalRule,
      label: `<"Q&A">`,
      condition: "METRIC < 10 && METRIC > 2 ]]>",
      actions: [{ name: "OutputMetric", parameters: { 'a"b&c': "<x>&amp;</x>" } }],
    };
    const xml = writeRulesXml([rule]);
    expect(xml).toContain('label="&lt;&quot;Q&amp;A&quot;&gt;"');
    expect(xml).toContain("<condition>METRIC &lt; 10 &amp;&amp; METRIC &gt; 2 ]]&gt;</condition>");
    expect(xml).toContain('<parameter name="a&quot;b&amp;c">&lt;x&gt;&amp;amp;&lt;/x&gt;</parameter>');
    const { enabled: _, ...definition } = rule;
    expect(rulesOf(xml)).toEqual([definition]);
  });

  it("keeps tabs, line feeds and carriage returns through a round trip", () => {
    const rule: InstalledRule = {
      ...minimalRule,
      label: "one\ttwo\nthree\r\nfour\rfive",
      condition: "METRIC > 1\r\n  AND METRIC < 9",
      actions: [{ name: "OutputMetric", parameters: { body: "line\r\nline" } }],
    };
    const xml = writeRulesXml([rule]);
    expect(xml).toContain('label="one&#9;two&#10;three&#13;&#10;four&#13;five"');
    const [read] = rulesOf(xml);
    expect(read?.label).toBe(rule.label);
    expect(read?.condition).toBe(rule.condition);
    expect(read?.actions[0]?.parameters).toEqual({ body: "line\r\nline" });
  });

  it("writes characters that XML cannot hold as replacement characters, keeping the document well-formed", () => {
    const xml = writeRulesXml([{ ...minimalRule, label: "bell\u0007 \uD800 end" }]);
    expect(rulesOf(xml)[0]?.label).toBe("bell\uFFFD \uFFFD end");
  });

  it("keeps characters beyond the Basic Multilingual Plane", () => {
    const xml = writeRulesXml([{ ...minimalRule, label: "rocket \u{1F680}" }]);
    expect(rulesOf(xml)[0]?.label).toBe("rocket \u{1F680}");
  });
});
