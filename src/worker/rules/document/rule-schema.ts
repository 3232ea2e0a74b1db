import { z } from "zod";
import { maxIdentifierLength } from "../../vocabulary/rdf-literal-rules";

/*
 * The JSON form of a monitoring-rule document: the original's XML structure, element for element.
 * An XML document is read into this form first, so one schema judges both, and every problem is
 * located by a JSON pointer into this form (for XML, the element or attribute of the same name).
 */

/** The original's namespace of every element of a rule document. */
export const rulesNamespace = "http://www.modaclouds.eu/xsd/1.0/monitoring_rules_schema";

export const aggregateFunctions = ["Average", "Percentile", "Max", "Min", "Sum", "Count"] as const;
export type AggregateFunction = (typeof aggregateFunctions)[number];

const longestId = 512;
const longestSeconds = 7 * 24 * 3600;

const text = (description: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `Required: ${description}.` : `Must be ${description}.`) });

const nonEmptyText = (description: string) => text(description).min(1, `Must be ${description}.`);

const parameters = z
  .record(z.string(), text("a string"), { error: "Must be an object of named string parameters." })
  .default({})
  .meta({ description: "Named parameters, each a string (the XML's `parameter` elements)." });

const seconds = (description: string, minimum: number) =>
  z
    .int({ error: `Must be ${description}, a whole number of seconds.` })
    .min(minimum, `Must be at least ${minimum}.`)
    .max(longestSeconds, `Must be at most ${longestSeconds} (a week).`);

export const monitoredTargetSchema = z
  .strictObject({
    class: nonEmptyText("a class of the model"),
    type: nonEmptyText("a non-empty string").optional(),
    id: nonEmptyText("a non-empty string")
      .max(maxIdentifierLength, `Must be at most ${maxIdentifierLength} characters.`)
      .optional(),
  })
  .meta({ description: "Model resources a rule reads: by id if given, else by type, else every one of the class." });

export const ruleActionSchema = z.strictObject({
  name: nonEmptyText("an action name (OutputMetric or RestCall)"),
  parameters,
});

export const ruleSchema = z
  .strictObject({
    id: nonEmptyText("the rule's id").max(longestId, `Must be at most ${longestId} characters.`),
    label: text("a string").optional(),
    relatedQosConstraintId: text("a string").optional(),
    startEnabled: z.boolean({ error: "Must be true or false." }).default(true),
    timeStep: seconds("the evaluation period", 1),
    timeWindow: seconds("the window's length", 1),
    allowedLatenessSeconds: seconds("the allowed lateness", 0).default(5),
    monitoredTargets: z
      .array(monitoredTargetSchema, { error: "Must be an array of targets." })
      .min(1, "Must name at least one target."),
    collectedMetric: z.strictObject({
      metricName: nonEmptyText("the name of the metric the rule reads"),
      parameters,
    }),
    metricAggregation: z
      .strictObject({
        aggregateFunction: nonEmptyText("an aggregate function"),
        groupingClass: nonEmptyText("a class of the model").optional(),
        parameters,
      })
      .optional(),
    condition: text("a condition").optional(),
    actions: z
      .array(ruleActionSchema, { error: "Must be an array holding the rule's action." })
      .length(1, "A rule has exactly one action."),
  })
  .meta({ id: "MonitoringRule", description: "One monitoring rule, as in the original's XML document." });

/** A rule as installed: the document's rule with its defaults filled in. */
export type RuleDefinition = z.output<typeof ruleSchema>;

export const rulesDocumentSchema = z
  .strictObject({
    monitoringRules: z.array(ruleSchema, { error: "Must be an array of rules." }),
  })
  .meta({ id: "MonitoringRules", description: "A document of monitoring rules (JSON form)." });

/** A rule as GET answers it: its definition and whether it runs now. */
export const installedRuleSchema = ruleSchema.extend({ enabled: z.boolean() }).meta({ id: "InstalledRule" });
export type InstalledRule = z.output<typeof installedRuleSchema>;
