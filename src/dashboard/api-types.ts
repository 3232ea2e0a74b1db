/*
 * The API's answers as the dashboard reads them: the types of the very schemas that validate and
 * document them in the Worker (type imports only: nothing of the Worker is bundled).
 */
import type { z } from "zod";
import type { ProblemBody as ServiceProblem } from "../shared/problems";
import type { collectorStateSchema } from "../worker/collectors/collector-view-schema";
import type { metricViewSchema, recentDatumSchema } from "../worker/metrics/metric-schema";
import type {
  attemptRecordSchema,
  observerReportSchema,
  observerWithSecretSchema,
  publicObserverSchema,
} from "../worker/metrics/observer-view-schema";
import type { ModelDocument } from "../worker/model/schema";
import type {
  observerListSchema,
  selectorObserverReportSchema,
} from "../worker/observers/selector-observer-view-schema";
import type { healthSchema } from "../worker/ops/health-schema";
import type { InstalledRule } from "../worker/rules/document/rule-schema";
import type { RuleReport as ServiceRuleReport } from "../worker/rules/rule-view-schema";
import type {
  MetricSummary as ServiceMetricSummary,
  Summary as ServiceSummary,
} from "../worker/summary/summary-schema";

export type { FieldProblem } from "../shared/problems";
export type { ResourceSelection } from "../worker/observers/model-selection/resource-selection-schema";
export type { DeliveryStatus, LabelChanges, ObserverState } from "../worker/vocabulary/delivery";

/** A problem document as read from any error answer: every field may be missing from a proxy's answer. */
export type ProblemBody = Partial<ServiceProblem>;
export type Health = z.output<typeof healthSchema>;
export type Metric = z.output<typeof metricViewSchema>;
export type RecentDatum = z.output<typeof recentDatumSchema>;
export type Observer = z.output<typeof publicObserverSchema>;
export type ObserverReport = z.output<typeof observerReportSchema>;
/** A registration's answer: the observer, with its secret when the service generated one. */
export type RegisteredObserver = z.output<typeof observerWithSecretSchema>;
export type Attempt = z.output<typeof attemptRecordSchema>;
/** An observer that follows selectors, with what it follows and its status. */
export type SelectorObserverReport = z.output<typeof selectorObserverReportSchema>;
/** An entry of the list of every observer: a selector observer (with `follows`) or a metric's (with `metric`). */
export type ListedObserver = z.output<typeof observerListSchema>[number];
export type Model = ModelDocument;
export type Rule = InstalledRule;
export type RuleReport = ServiceRuleReport;
export type CollectorState = z.output<typeof collectorStateSchema>;
/** GET /summary: every metric and observer with its figures, and the intake's. */
export type Summary = ServiceSummary;
export type MetricSummary = ServiceMetricSummary;
