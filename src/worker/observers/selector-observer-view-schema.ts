import { z } from "zod";
import { observerReportWith } from "../metrics/observer-view-schema";
import { matchSchema } from "../selectors/match-schema";
import { resourceSelectionSchema } from "./model-selection/resource-selection-schema";
import { labelChangesSchema } from "./selector-observer-schema";

const followed = {
  match: matchSchema.optional(),
  resources: resourceSelectionSchema.optional(),
  labels: labelChangesSchema.optional(),
};

export const selectorObserverReportSchema = observerReportWith(followed).meta({
  id: "SelectorObserver",
  description: "An observer that follows selectors, with what it follows and its delivery status.",
});

export const selectorObserverWithSecretSchema = observerReportWith({
  ...followed,
  secret: z.string().optional(),
}).meta({
  id: "RegisteredSelectorObserver",
  description: 'A selector observer; `secret` is present only when the request asked for "generate".',
});

/** GET /observers: every observer of the service. */
export const observerListSchema = z
  .array(
    z.union([
      observerReportWith({
        ...followed,
        follows: z.int().min(0).meta({
          description: "How many metrics it follows now: those whose name its selectors can match.",
        }),
      }),
      observerReportWith({ metric: z.string().meta({ description: "The metric a per-metric observer follows." }) }),
    ]),
  )
  .meta({
    id: "ObserverList",
    description: "Selector observers first (with what they follow), then every metric's observers (with their metric).",
  });
