import { z } from "zod";
import { deliveryStatusSchema } from "../metrics/observer-view-schema";
import { installedRuleSchema } from "./document/rule-schema";

const count = (description: string) => z.int().min(0).meta({ description });

export const ruleStatusSchema = z
  .strictObject({
    enabled: z.boolean(),
    windowsEvaluated: count("Windows closed with data in them."),
    dataRead: count("Data of the collected metric taken into a window (or passed through)."),
    dataEmitted: count("Output data sent: to the output metric, or as REST calls."),
    dataLate: count("Data that came after every window holding them had closed; not aggregated."),
    lastEvaluationAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable().meta({ description: "Why the latest evaluation failed, until one succeeds." }),
  })
  .meta({ id: "RuleStatus", description: "How the rule runs." });

export type RuleStatus = z.output<typeof ruleStatusSchema>;

/** GET /monitoring-rules/:id in JSON: the rule, its status, and for a RestCall rule how its calls go. */
export const ruleReportSchema = installedRuleSchema
  .extend({
    status: ruleStatusSchema,
    calls: deliveryStatusSchema.optional().meta({
      description: "A RestCall rule's calls: delivered, failed, waiting in the backlog (as an observer's status).",
    }),
  })
  .meta({ id: "RuleReport" });

export type RuleReport = z.output<typeof ruleReportSchema>;

export const installedRulesSchema = z
  .strictObject({ monitoringRules: z.array(installedRuleSchema) })
  .meta({ id: "InstalledRules", description: "Every installed rule, in installation order." });

export const ruleIdParams = z.object({
  id: z.string().min(1).meta({ description: "The rule's id; percent-encoded." }),
});

export const enabledQuerySchema = z.object({
  enabled: z
    .enum(["true", "false"], { error: "enabled must be true or false." })
    .optional()
    .meta({ description: "The original's way to enable or disable a rule (answered 204)." }),
});

export const ruleChangeSchema = z
  .strictObject({
    enabled: z.boolean({
      error: (issue) =>
        issue.input === undefined
          ? "Required: enabled, true or false."
          : `Must be true or false (a JSON boolean, without quotes), not ${JSON.stringify(issue.input)}.`,
    }),
  })
  .meta({ id: "RuleChange" });
