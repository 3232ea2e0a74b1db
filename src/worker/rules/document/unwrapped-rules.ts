import type { FieldProblem } from "../../../shared/problems";
import { ruleSchema } from "./rule-schema";

const wrapping = 'wrap it as {"monitoringRules": [ … ]}';

const ruleFields = Object.keys(ruleSchema.shape);

/**
 * The one problem of rules sent without the document around them (an array of rules, or a rule
 * alone), which the schema would answer with a problem per field of the rule; undefined for a body
 * that is not such.
 */
export function unwrappedRulesProblem(document: unknown): FieldProblem | undefined {
  if (Array.isArray(document)) {
    return { path: "", message: `The body is an array, not a rule document: ${wrapping}.` };
  }
  if (typeof document !== "object" || document === null || "monitoringRules" in document) return undefined;
  if (!ruleFields.some((field) => field in document)) return undefined;
  return { path: "", message: `The body is a single rule, not a rule document: ${wrapping}.` };
}
