import type { FieldProblem } from "../../../shared/problems";
import { jsonPointer } from "../../../shared/problems";
import type { Config } from "../../config";
import { observerAddressProblem } from "../../metrics/address-policy";
import { observerRegistrationSchema } from "../../metrics/observer-schema";
import { inWords, isResourceClass, withArticle } from "../../model/ontology";
import { metricNameSchema } from "../../vocabulary/metric-name";
import { maxIdentifierLength } from "../../vocabulary/rdf-literal-rules";
import { type AggregateFunction, aggregateFunctions, type RuleDefinition } from "../document/rule-schema";
import { type Condition, parseCondition } from "../expressions/condition";
import { parseValueExpression, type ValueExpression } from "../expressions/value-expression";
import { canGroup, groupingsOf, isRuleClass, type RuleClass, ruleClasses } from "../targeting/grouping";

export const restCallMethods = ["GET", "POST", "PUT", "DELETE"] as const;
export type RestCallMethod = (typeof restCallMethods)[number];

/** Where a RestCall rule's calls are delivered from: an observer of this metric, with its backlog and attempt log. */
export function restCallMetric(ruleId: string): string {
  return `tower.rule.${ruleId}.calls`;
}

export interface RestCall {
  url: string;
  method: RestCallMethod;
}

/** A rule ready to run: every text of its document parsed, every choice made. */
export interface CompiledRule {
  id: string;
  definition: RuleDefinition;
  /** Aggregated over windows; otherwise every selected datum passes through on its own. */
  windowed: boolean;
  aggregate?: { fn: AggregateFunction; percentile?: number };
  groupingClass?: RuleClass;
  condition?: Condition;
  value: ValueExpression;
  /** A window must keep its values: some percentile is asked for. */
  keepsValues: boolean;
  /** The metric the rule's output data go to (a RestCall rule's calls metric for RestCall). */
  outputMetric: string;
  /** The output's resourceId: the group's (or datum's) own id, or this fixed string. */
  fixedResourceId?: string;
  restCall?: RestCall;
}

export type Compiled = { ok: true; rule: CompiledRule } | { ok: false; problems: FieldProblem[] };

function classProblem(name: string): string {
  const ours = ruleClasses.join(", ");
  return isResourceClass(name)
    ? `${name} is a class of the model, but rules target and group by ${ours} only (as the original's did).`
    : `Unknown class "${name}"; rules target and group by ${ours}.`;
}

/** Why data about `targetClass` cannot be grouped by `grouping`. */
function groupingProblem(targetClass: RuleClass, grouping: RuleClass): string {
  const into = inWords([targetClass, ...groupingsOf(targetClass)]);
  return `cannot group ${targetClass} by ${grouping}: ${withArticle(targetClass)} groups only into ${into}.`;
}

const outputParameters = ["metric", "resourceId", "value"];
const restCallParameters = ["url", "method"];

/**
 * Compiles one rule of a document, or lists every problem of it, each located by a JSON pointer
 * under `at` (the rule's own pointer in the document).
 */
export function compileRule(rule: RuleDefinition, at: readonly PropertyKey[], config: Config): Compiled {
  const problems: FieldProblem[] = [];
  const problem = (path: PropertyKey[], message: string) =>
    problems.push({ path: jsonPointer([...at, ...path]), message: `Rule "${rule.id}": ${message}` });
  const metricName = metricNameSchema(config.MAX_METRIC_NAME_LENGTH);

  if (rule.timeStep > rule.timeWindow) {
    problem(["timeStep"], `the step (${rule.timeStep} s) must not be longer than the window (${rule.timeWindow} s).`);
  }
  const collected = metricName.safeParse(rule.collectedMetric.metricName);
  if (!collected.success) problem(["collectedMetric", "metricName"], `${collected.error.issues[0]?.message}.`);

  const targetClasses: RuleClass[] = [];
  rule.monitoredTargets.forEach((target, index) => {
    if (isRuleClass(target.class)) targetClasses.push(target.class);
    else problem(["monitoredTargets", index, "class"], classProblem(target.class));
  });

  let aggregate: CompiledRule["aggregate"];
  let groupingClass: RuleClass | undefined;
  const aggregation = rule.metricAggregation;
  if (aggregation) {
    const fn = aggregation.aggregateFunction;
    if (!(aggregateFunctions as readonly string[]).includes(fn)) {
      problem(
        ["metricAggregation", "aggregateFunction"],
        `unknown aggregate function "${fn}"; expected one of ${aggregateFunctions.join(", ")}.`,
      );
    } else if (fn === "Percentile") {
      const text = aggregation.parameters.thPercentile?.trim();
      const percentile = text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
      if (!(percentile >= 0 && percentile <= 100)) {
        problem(
          ["metricAggregation", "parameters", "thPercentile"],
          "Percentile needs the parameter thPercentile, a number from 0 to 100.",
        );
      } else {
        aggregate = { fn, percentile };
      }
    } else {
      aggregate = { fn: fn as AggregateFunction };
    }
    const grouping = aggregation.groupingClass;
    if (grouping !== undefined) {
      if (!isRuleClass(grouping)) {
        problem(["metricAggregation", "groupingClass"], classProblem(grouping));
      } else {
        groupingClass = grouping;
        for (const targetClass of new Set(targetClasses)) {
          if (!canGroup(targetClass, grouping)) {
            problem(["metricAggregation", "groupingClass"], groupingProblem(targetClass, grouping));
          }
        }
      }
    }
  }

  let condition: Condition | undefined;
  if (rule.condition !== undefined) {
    const parsed = parseCondition(rule.condition);
    if (parsed.ok) condition = parsed.value;
    else problem(["condition"], parsed.message);
  }

  const [action] = rule.actions;
  const actionAt = ["actions", 0];
  const parameters = action?.parameters ?? {};
  const unknownParameters = (known: readonly string[]) => {
    for (const name of Object.keys(parameters)) {
      if (!known.includes(name)) {
        problem(
          [...actionAt, "parameters", name],
          `unknown parameter "${name}" of ${action?.name}; it takes ${known.join(", ")}.`,
        );
      }
    }
  };
  let outputMetric = "";
  let fixedResourceId: string | undefined;
  let restCall: RestCall | undefined;
  let valueText = "METRIC";
  switch (action?.name) {
    case "OutputMetric": {
      unknownParameters(outputParameters);
      const metric = parameters.metric;
      if (metric === undefined) {
        problem(
          [...actionAt, "parameters", "metric"],
          "OutputMetric needs the parameter metric: the output metric's name.",
        );
      } else {
        const named = metricName.safeParse(metric);
        if (named.success) outputMetric = metric;
        else problem([...actionAt, "parameters", "metric"], `${named.error.issues[0]?.message}.`);
      }
      valueText = parameters.value ?? "METRIC";
      fixedResourceId = resourceIdParameter(parameters.resourceId, groupingClass !== undefined, (message) =>
        problem([...actionAt, "parameters", "resourceId"], message),
      );
      break;
    }
    case "RestCall": {
      unknownParameters(restCallParameters);
      restCall = restCallOf(parameters, config, (name, message) => problem([...actionAt, "parameters", name], message));
      const calls = metricName.safeParse(restCallMetric(rule.id));
      if (calls.success) outputMetric = restCallMetric(rule.id);
      else
        problem(
          ["id"],
          `a RestCall rule's calls go to the metric "${restCallMetric(rule.id)}": ${calls.error.issues[0]?.message}.`,
        );
      break;
    }
    case "CloudMLCall":
      problem(
        [...actionAt, "name"],
        "CloudMLCall (the original's deployment tool) is not supported; use OutputMetric or RestCall.",
      );
      break;
    default: {
      const name = action?.name ?? "";
      const hint = ["OutputMetric", "RestCall"].find((known) => known.toLowerCase() === name.toLowerCase());
      problem(
        [...actionAt, "name"],
        hint
          ? `unknown action "${name}"; did you mean ${hint}?`
          : `unknown action "${name}"; expected OutputMetric or RestCall.`,
      );
    }
  }

  const parsedValue = parseValueExpression(valueText);
  let value: ValueExpression | undefined;
  if (!parsedValue.ok) {
    problem([...actionAt, "parameters", "value"], parsedValue.message);
  } else {
    value = parsedValue.value;
    if (!aggregation && value.aggregates.length > 0 && value.usesBareMetric) {
      problem(
        [...actionAt, "parameters", "value"],
        "without a metricAggregation, METRIC is each datum's value: it cannot be mixed with aggregates of the window such as SUM(METRIC).",
      );
    }
  }
  if (problems.length > 0 || !value) return { ok: false, problems };
  const windowed = aggregation !== undefined || value.aggregates.length > 0;
  const keepsValues = aggregate?.fn === "Percentile" || value.aggregates.some((call) => call.fn === "PERCENTILE");
  return {
    ok: true,
    rule: {
      id: rule.id,
      definition: rule,
      windowed,
      ...(aggregate ? { aggregate } : {}),
      ...(groupingClass ? { groupingClass } : {}),
      ...(condition ? { condition } : {}),
      value,
      keepsValues,
      outputMetric,
      ...(fixedResourceId === undefined ? {} : { fixedResourceId }),
      ...(restCall ? { restCall } : {}),
    },
  };
}

/** The OutputMetric's resourceId: `ID` (the default) names each group or datum; a custom string is fixed, unless grouping. */
function resourceIdParameter(
  parameter: string | undefined,
  grouped: boolean,
  report: (message: string) => void,
): string | undefined {
  if (parameter === undefined || parameter === "ID") return undefined;
  if (parameter.trim() === "") {
    report("the resourceId must be ID or a non-empty string.");
    return undefined;
  }
  // The output's data go through the intake's checks of a resourceId: the rule is refused now instead.
  if (parameter.length > maxIdentifierLength) {
    report(`the resourceId must be at most ${maxIdentifierLength} characters.`);
    return undefined;
  }
  if (grouped)
    report(
      `a custom resourceId ("${parameter}") cannot be combined with a groupingClass: each group is its own resource. Use ID.`,
    );
  return parameter;
}

function restCallOf(
  parameters: Record<string, string>,
  config: Config,
  report: (parameter: string, message: string) => void,
): RestCall | undefined {
  const method = (parameters.method ?? "POST").toUpperCase();
  const isMethod = (restCallMethods as readonly string[]).includes(method);
  if (!isMethod) report("method", `the method must be one of ${restCallMethods.join(", ")}.`);
  if (parameters.url === undefined) {
    report("url", "RestCall needs the parameter url: where to send each output datum.");
    return undefined;
  }
  const registration = observerRegistrationSchema.safeParse({
    format: "TOWER/JSON",
    protocol: "HTTP",
    callbackUrl: parameters.url,
  });
  if (!registration.success) {
    report("url", registration.error.issues[0]?.message.replace("callbackUrl", "url") ?? "The url is not valid.");
    return undefined;
  }
  const refused = observerAddressProblem(registration.data, config.ALLOW_PRIVATE_OBSERVERS);
  if (refused) {
    report("url", refused.message.replaceAll("callbackUrl", "url"));
    return undefined;
  }
  return isMethod ? { url: registration.data.callbackUrl!, method: method as RestCallMethod } : undefined;
}
