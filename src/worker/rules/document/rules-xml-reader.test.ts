import { describe, expect, it } from "vitest";
import { type FieldProblem, zodProblems } from "../../../shared/problems";
import { validOriginalDocuments, wrongAtosRule } from "./fixtures/original-documents";
import { rulesDocumentSchema, rulesNamespace } from "./rule-schema";
import { readRulesXml } from "./rules-xml-reader";

const validFixtures = validOriginalDocuments;

function read(xml: string): unknown {
  const reading = readRulesXml(xml);
  if (!reading.ok) throw new Error(`Expected the XML to be read: ${JSON.stringify(reading.problems)}`);
  return reading.document;
}

function problemsOf(xml: string): FieldProblem[] {
  const reading = readRulesXml(xml);
  if (reading.ok) throw new Error(`Expected problems, read ${JSON.stringify(reading.document)}`);
  return reading.problems;
}

/** The problems the schema finds in what the XML reads into. */
function schemaProblemsOf(xml: string): FieldProblem[] {
  const result = rulesDocumentSchema.safeParse(read(xml));
  return result.success ? [] : zodProblems(result.error);
}

const targets = '<monitoredTargets><monitoredTarget class="Method" type="register"/></monitoredTargets>';
const metric = '<collectedMetric metricName="ResponseTime"/>';
const action = '<actions><action name="OutputMetric"><parameter name="metric">Out</parameter></action></actions>';
const ruleAttributes = 'id="rule" timeStep="60" timeWindow="60"';

/** A document of one rule, its content on the third line. */
function oneRule(content = targets + metric + action, attributes = ruleAttributes): string {
  return `<monitoringRules xmlns="${rulesNamespace}">\n  <monitoringRule ${attributes}>\n${content}\n  </monitoringRule>\n</monitoringRules>`;
}

function firstRule(xml: string): Record<string, unknown> {
  const document = read(xml) as { monitoringRules: Record<string, unknown>[] };
  return document.monitoringRules[0]!;
}

describe("readRulesXml: the original's example documents", () => {
  it.each(Object.entries(validFixtures))("reads %s into a document the schema accepts", (_name, xml) => {
    const result = rulesDocumentSchema.safeParse(read(xml));
    expect(result.success ? [] : zodProblems(result.error)).toEqual([]);
  });

  it("reads every attribute and element of a rule", () => {
    expect(read(validOriginalDocuments["AvgResponseTimeRule.xml"])).toEqual({
      monitoringRules: [
        {
          id: "AvgResponseTimeRule",
          label: "Avg RT Rule",
          startEnabled: true,
          timeStep: 60,
          timeWindow: 60,
          monitoredTargets: [{ class: "Method", type: "register" }],
          collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "1" } },
          metricAggregation: { aggregateFunction: "Average", groupingClass: "Method", parameters: {} },
          actions: [
            {
              name: "OutputMetric",
              parameters: { resourceId: "ID", metric: "AverageResponseTime", value: "METRIC" },
            },
          ],
        },
      ],
    });
  });

  it("reads a prefixed document with its XML declaration, in any order of elements", () => {
    const document = rulesDocumentSchema.parse(read(validOriginalDocuments["AtosMonitoringRules.xml"]));
    expect(document.monitoringRules).toHaveLength(8);
    const [first] = document.monitoringRules;
    expect(first?.relatedQosConstraintId).toBe(
      "af54b44f-2f93-408b-87d4-f3540fdc49a5_2468ecf1-18e3-42ef-af4b-a94e3d78d823_6ca5e99c-0e39-4d9f-a599-fc110246361e_seff",
    );
    expect(first?.condition).toBe("METRIC > 2500.0");
    expect(first?.collectedMetric).toEqual({ metricName: "ResponseTime", parameters: { samplingProbability: "1" } });
  });

  it("ignores attributes of other namespaces and fills the schema's defaults", () => {
    const document = rulesDocumentSchema.parse(read(validOriginalDocuments["MonitoringRules.xml"]));
    expect(document.monitoringRules.map((rule) => rule.id)).toEqual([
      "cpuRule",
      "respTimeRule",
      "EffectiveResponseTimeRule",
      "RestCallRule",
    ]);
    expect(document.monitoringRules[0]).toMatchObject({ startEnabled: true, timeStep: 30, timeWindow: 30 });
    expect(document.monitoringRules[3]?.actions[0]?.parameters).toEqual({
      url: "http://localhost:8170/v1/monitoring-rules/RestCallRule",
      method: "DELETE",
    });
  });

  it("reads WrongAtosRule.xml, whose mistakes the schema reports where they are", () => {
    const rule = firstRule(wrongAtosRule);
    expect(rule.collectedMetric).toEqual({ collectedMetric: "ResponseTime", parameters: {} });
    expect(rule.actions).toEqual([
      {
        name: "outputMetric",
        parameters: { metric: "gui_listOfPatients_violated", value: "ResponseTime", resourceId: "ID" },
      },
      { name: "Business", parameters: { type: "", value: "", unit: "", validity: "" } },
    ]);
    expect(schemaProblemsOf(wrongAtosRule)).toEqual(
      expect.arrayContaining([
        { path: "/monitoringRules/0/collectedMetric/metricName", message: expect.stringMatching(/^Required/) },
        { path: "/monitoringRules/0/collectedMetric/collectedMetric", message: "Unknown field." },
        { path: "/monitoringRules/0/actions", message: "A rule has exactly one action." },
      ]),
    );
  });
});

describe("readRulesXml: namespaces", () => {
  it("reads the same document whether the namespace is the default or has a prefix", () => {
    const unprefixed = oneRule(`${targets}${metric}<condition>METRIC &gt; 1</condition>${action}`);
    const prefixed = unprefixed
      .replaceAll(/<(\/?)(\w)/g, "<$1mo:$2")
      .replace(`xmlns="${rulesNamespace}"`, `xmlns:mo="${rulesNamespace}"`);
    expect(prefixed).toContain("<mo:monitoringRule ");
    expect(read(prefixed)).toEqual(read(unprefixed));
  });

  it("refuses a root in no namespace or in another namespace", () => {
    const bare = oneRule().replace(` xmlns="${rulesNamespace}"`, "");
    expect(problemsOf(bare)).toEqual([
      { path: "", message: expect.stringContaining("found <monitoringRules> in no namespace") },
    ]);
    const elsewhere = oneRule().replace(rulesNamespace, "urn:example:other");
    expect(problemsOf(elsewhere)).toEqual([
      { path: "", message: expect.stringContaining("in the namespace urn:example:other") },
    ]);
  });

  it("tells a rule sent alone to put it inside <monitoringRules>", () => {
    const lone = `<monitoringRule xmlns="${rulesNamespace}" ${ruleAttributes}>${targets}${metric}${action}</monitoringRule>`;
    expect(problemsOf(lone)).toEqual([
      {
        path: "",
        message: expect.stringMatching(/found <monitoringRule> .*; put the rule inside a <monitoringRules> element\.$/),
      },
    ]);
  });

  it("refuses a root that is not monitoringRules", () => {
    expect(problemsOf(`<monitoringRule xmlns="${rulesNamespace}"/>`)).toEqual([
      { path: "", message: expect.stringContaining("must be <monitoringRules>") },
    ]);
  });

  it("refuses an element of another namespace, saying where it is", () => {
    const xml = oneRule(`${targets}${metric}${action}<x:note xmlns:x="urn:example:other"/>`);
    expect(problemsOf(xml)).toEqual([
      {
        path: "/monitoringRules/0/note",
        message: expect.stringMatching(/<x:note> at line 3, column \d+ is not in the namespace .*urn:example:other/),
      },
    ]);
  });

  it("ignores namespace declarations and comments, processing instructions and whitespace", () => {
    const decorated = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- rules -->\n<?app hint?>\n${oneRule(
      `<!-- the targets -->${targets}\n  <?app hint?>  ${metric}${action}`,
    ).replace("<monitoringRule ", '<monitoringRule xmlns:unused="urn:example:unused" ')}`;
    expect(read(decorated)).toEqual(read(oneRule()));
  });
});

describe("readRulesXml: well-formedness", () => {
  it("refuses XML that is not well-formed, with the line and column", () => {
    const xml = oneRule(`${targets}${metric}<actions>`);
    expect(problemsOf(xml)).toEqual([
      { path: "", message: expect.stringMatching(/^The XML is not well-formed at line 4, column \d+: .+\.$/) },
    ]);
  });

  it("refuses an empty text and one that is not XML", () => {
    expect(problemsOf("")).toEqual([{ path: "", message: expect.stringMatching(/^The XML is not well-formed/) }]);
    expect(problemsOf('{"monitoringRules":[]}')).toEqual([
      {
        path: "",
        message: expect.stringMatching(/^The XML is not well-formed at line 1, column \d+: text data outside/),
      },
    ]);
  });

  it("refuses entities the XML does not define", () => {
    expect(problemsOf(oneRule(`${targets}${metric}<condition>&nbsp;</condition>${action}`))).toEqual([
      { path: "", message: expect.stringContaining("undefined entity") },
    ]);
  });
});

describe("readRulesXml: structure", () => {
  it("refuses an unknown element with the pointer of where it is", () => {
    expect(problemsOf(oneRule(`${targets}<foo/>${metric}${action}`))).toEqual([
      { path: "/monitoringRules/0/foo", message: expect.stringMatching(/<foo> at line 3, column \d+/) },
    ]);
  });

  it("refuses an unknown element in a list at the list's pointer", () => {
    const xml = oneRule(`<monitoredTargets><target class="VM"/></monitoredTargets>${metric}${action}`);
    expect(problemsOf(xml)).toEqual([
      { path: "/monitoringRules/0/monitoredTargets", message: expect.stringContaining("<target>") },
    ]);
    const rootChild = `<monitoringRules xmlns="${rulesNamespace}"><rule/></monitoringRules>`;
    expect(problemsOf(rootChild)).toEqual([{ path: "/monitoringRules", message: expect.stringContaining("<rule>") }]);
  });

  it("refuses an element that a rule holds once, given twice", () => {
    expect(problemsOf(oneRule(`${targets}${metric}${metric}${action}`))).toEqual([
      { path: "/monitoringRules/0/collectedMetric", message: expect.stringContaining("holds one <collectedMetric>") },
    ]);
  });

  it("refuses text where elements belong and elements where text belongs", () => {
    expect(problemsOf(oneRule(`${targets}stray${metric}${action}`))).toEqual([
      { path: "/monitoringRules/0", message: expect.stringContaining("elements only") },
    ]);
    expect(problemsOf(oneRule(`${targets}${metric}<condition>METRIC <b/></condition>${action}`))).toEqual([
      { path: "/monitoringRules/0/condition", message: expect.stringContaining("text only") },
    ]);
  });

  it("refuses a field of the JSON form given as an attribute", () => {
    const attributes = `${ruleAttributes} allowedLatenessSeconds="10" condition="METRIC &gt; 1"`;
    expect(problemsOf(oneRule(undefined, attributes))).toEqual([
      { path: "/monitoringRules/0/allowedLatenessSeconds", message: expect.stringContaining("only in the JSON form") },
      { path: "/monitoringRules/0/condition", message: expect.stringContaining("in a <condition> element") },
    ]);
  });

  it("takes attributes in the rules namespace as its own and ignores those of other namespaces", () => {
    const namespaces = `xmlns:mo="${rulesNamespace}" xmlns:other="urn:example:other"`;
    const attributes = `${namespaces} mo:id="rule" other:id="ignored" timeStep="60" timeWindow="60"`;
    expect(read(oneRule(undefined, attributes))).toEqual(read(oneRule()));
    expect(problemsOf(oneRule(undefined, `${namespaces} mo:id="rule" ${ruleAttributes}`))).toEqual([
      { path: "/monitoringRules/0/id", message: expect.stringContaining('gives "mo:id" and "id"') },
    ]);
  });

  it("keeps unknown attributes, for the schema to name them", () => {
    const rule = firstRule(oneRule(undefined, `${ruleAttributes} owner="ops"`));
    expect(rule.owner).toBe("ops");
    expect(schemaProblemsOf(oneRule(undefined, `${ruleAttributes} owner="ops"`))).toEqual([
      { path: "/monitoringRules/0/owner", message: "Unknown field." },
    ]);
  });
});

describe("readRulesXml: parameters", () => {
  const withActionParameters = (parameters: string) =>
    oneRule(`${targets}${metric}<actions><action name="OutputMetric">${parameters}</action></actions>`);

  it("reads parameters as an object of trimmed texts", () => {
    const rule = firstRule(
      withActionParameters('<parameter name="metric">\n  Out\n</parameter><parameter name="empty"/>'),
    );
    expect(rule.actions).toEqual([{ name: "OutputMetric", parameters: { metric: "Out", empty: "" } }]);
  });

  it("refuses a parameter without a name", () => {
    expect(problemsOf(withActionParameters("<parameter>Out</parameter>"))).toEqual([
      {
        path: "/monitoringRules/0/actions/0/parameters",
        message: expect.stringMatching(/at line 3, column \d+ has no name/),
      },
    ]);
  });

  it("refuses a parameter given twice", () => {
    const twice = '<parameter name="metric">A</parameter>\n<parameter name="metric">B</parameter>';
    expect(problemsOf(withActionParameters(twice))).toEqual([
      { path: "/monitoringRules/0/actions/0/parameters/metric", message: expect.stringContaining("given twice") },
    ]);
  });

  it("keeps a parameter named __proto__ as a parameter", () => {
    const rule = firstRule(withActionParameters('<parameter name="__proto__">x</parameter>'));
    const [readAction] = rule.actions as { parameters: Record<string, string> }[];
    expect(Object.getOwnPropertyNames(readAction?.parameters)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(readAction?.parameters)).toBe(Object.prototype);
  });

  it("escapes the parameter's name in its pointer", () => {
    expect(
      problemsOf(withActionParameters('<parameter name="a/b">1</parameter><parameter name="a/b">2</parameter>')),
    ).toEqual([{ path: "/monitoringRules/0/actions/0/parameters/a~1b", message: expect.any(String) }]);
  });
});

describe("readRulesXml: text and attribute values", () => {
  const withCondition = (condition: string) =>
    oneRule(`${targets}${metric}<condition>${condition}</condition>${action}`);

  it("decodes entities and character references in a condition", () => {
    expect(firstRule(withCondition("METRIC &lt; 10 &amp;&amp; METRIC &#62; 2")).condition).toBe(
      "METRIC < 10 && METRIC > 2",
    );
  });

  it("decodes CDATA sections in a condition, mixed with text", () => {
    expect(firstRule(withCondition(" <![CDATA[METRIC < 10]]> &amp;&amp; <![CDATA[METRIC > 2]]> ")).condition).toBe(
      "METRIC < 10 && METRIC > 2",
    );
  });

  it.each([
    ["60", 60],
    [" 60 ", 60],
    ["+60", 60],
    ["060", 60],
    ["1.5", "1.5"],
    ["-1", "-1"],
    ["1e3", "1e3"],
    ["", ""],
  ])("reads timeStep and timeWindow %j as %j", (written, value) => {
    const rule = firstRule(oneRule(undefined, `id="rule" timeStep="${written}" timeWindow="${written}"`));
    expect(rule.timeStep).toBe(value);
    expect(rule.timeWindow).toBe(value);
  });

  it("lets the schema refuse a time that is not a whole number, at its pointer", () => {
    expect(schemaProblemsOf(oneRule(undefined, 'id="rule" timeStep="1.5" timeWindow="60"'))).toEqual([
      { path: "/monitoringRules/0/timeStep", message: expect.stringContaining("whole number") },
    ]);
  });

  it.each([
    ["true", true],
    ["1", true],
    [" false ", false],
    ["0", false],
    ["yes", "yes"],
    ["TRUE", "TRUE"],
  ])("reads startEnabled %j as %j", (written, value) => {
    expect(firstRule(oneRule(undefined, `${ruleAttributes} startEnabled="${written}"`)).startEnabled).toBe(value);
  });

  it("lets the schema refuse a startEnabled that is not a boolean, at its pointer", () => {
    expect(schemaProblemsOf(oneRule(undefined, `${ruleAttributes} startEnabled="yes"`))).toEqual([
      { path: "/monitoringRules/0/startEnabled", message: "Must be true or false." },
    ]);
  });
});
