import { z } from "zod";
import { checkTargetFields, type ObserverRegistration, observerTargetFields } from "../metrics/observer-schema";
import { matchSchema } from "../selectors/match-schema";
import type { LabelChanges } from "../vocabulary/delivery";
import { type ResourceSelection, resourceSelectionSchema } from "./model-selection/resource-selection-schema";

const maxLabelChanges = 32;

/** A label name as Prometheus takes it; names beginning with `__` are Prometheus's own. */
const labelNameSchema = z
  .string("A label name must be a string.")
  .max(256, "A label name must be at most 256 characters long.")
  .regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "A label name must match [a-zA-Z_][a-zA-Z0-9_]*.")
  .refine((name) => !name.startsWith("__"), "Label names beginning with __ are reserved.");

/** Labels added to, and dropped from, the series the observer receives, in the formats that carry labels. */
export const labelChangesSchema = z
  .strictObject({
    add: z
      .record(labelNameSchema, z.string("A label value must be a string.").max(1_024, "At most 1024 characters."))
      .refine((add) => Object.keys(add).length <= maxLabelChanges, `At most ${maxLabelChanges} labels may be added.`)
      .optional()
      .meta({ description: "Labels every series gets (as Prometheus's external labels)." }),
    drop: z
      .array(labelNameSchema)
      .max(maxLabelChanges, `At most ${maxLabelChanges} labels may be dropped.`)
      .optional()
      .meta({ description: "Labels removed from every series (as Prometheus's labeldrop)." }),
  })
  .meta({
    id: "LabelChanges",
    description: "Applied to the series the observer receives in the formats that carry labels.",
  }) satisfies z.ZodType<LabelChanges>;

/** What a selector observer follows: the data its selectors match, of every metric, now and later. */
export interface SelectorSpec {
  /** The PromQL series selectors as sent. */
  match?: string[];
  resources?: ResourceSelection;
  labels?: LabelChanges;
}

/** Body of POST /observers: an observer's target and what it follows. */
export const selectorObserverRegistrationSchema = checkTargetFields(
  z.strictObject({
    ...observerTargetFields,
    match: matchSchema.optional(),
    resources: resourceSelectionSchema.optional(),
    labels: labelChangesSchema.optional(),
  }),
)
  .refine((body) => body.match !== undefined || body.resources !== undefined, {
    path: ["match"],
    message: "Give match (PromQL series selectors), resources (a selection through the model), or both.",
  })
  .meta({
    id: "SelectorObserverRegistration",
    description:
      "An observer of every datum its selectors match, of every metric that exists or appears later. The same " +
      "match, resources, labels, format, protocol and address again answer the existing observer.",
  });

export type SelectorObserverRegistration = z.output<typeof selectorObserverRegistrationSchema>;

/** The registration's target, as a per-metric observer's. */
export function targetOf(registration: SelectorObserverRegistration): ObserverRegistration {
  const { match: _match, resources: _resources, labels: _labels, ...target } = registration;
  return target;
}

/** What the registration follows. */
export function specOf(registration: SelectorObserverRegistration): SelectorSpec {
  const { match, resources, labels } = registration;
  return {
    ...(match === undefined ? {} : { match }),
    ...(resources === undefined ? {} : { resources }),
    ...(labels === undefined ? {} : { labels }),
  };
}
