/*
 * The API's answers as the dashboard reads them (docs/API.md). Written here rather than imported
 * from the Worker's schemas, whose modules need the Worker's runtime types.
 */

export interface FieldProblem {
  path: string;
  message: string;
}

export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: FieldProblem[];
}

export interface Health {
  status: string;
  version: string;
}

/** GET /v1/usage: the answering instance's counts since `since`. */
export interface Usage {
  since: string;
  dataAccepted: number;
}

export interface Metric {
  id: string;
  description?: string;
  unit?: string;
  observers: number;
  /** Data consumed so far; absent from services older than the field. */
  dataAccepted?: number;
  /** Data consumed in each of the last minutes, oldest first, the current minute last. */
  acceptedPerMinute?: number[];
}

/** A datum of GET /v1/metrics/:id/data; NaN and the infinities are spelt as strings. */
export interface RecentDatum {
  id: string;
  resourceId: string;
  value: number | string;
  timestamp: number;
}

export type ObserverState = "active" | "paused" | "disabled";

export interface Observer {
  id: string;
  format: string;
  protocol: string;
  callbackUrl?: string;
  observerHost?: string;
  observerPort?: number;
  state: ObserverState;
}

export interface DeliveryStatus {
  delivered: number;
  failed: number;
  dead: number;
  dropped: number;
  backlog: number;
  oldestBacklogAt: string | null;
  nextAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

export interface ObserverReport extends Observer {
  status: DeliveryStatus;
}

/** A registration's answer: the observer, with its secret when the service generated one. */
export interface RegisteredObserver extends Observer {
  secret?: string;
}

export interface Attempt {
  at: string;
  attempt: number;
  ok: boolean;
  httpStatus?: number;
  error?: string;
  latencyMs: number;
  data: number;
  webhookId: string;
}

export interface Model {
  cloudProviders: { id: string; type: string }[];
  vMs: { id: string; type: string; cloudProvider: string; numberOfCPUs: number }[];
  internalComponents: { id: string; type: string; providedMethods: string[]; requiredComponents: string[] }[];
  methods: { id: string; type: string }[];
}

export interface Rule {
  id: string;
  label?: string;
  enabled: boolean;
  timeStep: number;
  timeWindow: number;
  monitoredTargets: { class: string; type?: string; id?: string }[];
  collectedMetric: { metricName: string };
  metricAggregation?: { aggregateFunction: string; groupingClass?: string; parameters?: Record<string, string> };
  condition?: string;
  actions: { name: string; parameters: Record<string, string> }[];
}

export interface RuleStatus {
  enabled: boolean;
  windowsEvaluated: number;
  dataRead: number;
  dataEmitted: number;
  dataLate: number;
  lastEvaluationAt: string | null;
  lastError: string | null;
}

export interface RuleReport extends Rule {
  status: RuleStatus;
}
