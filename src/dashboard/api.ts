import { type CallOptions, callApi, getJson, sendJson } from "./api-client";
import type {
  Attempt,
  CollectorState,
  Health,
  Metric,
  Model,
  Observer,
  ObserverReport,
  ObserverState,
  RecentDatum,
  RegisteredObserver,
  Rule,
  RuleReport,
  SelectorObserverReport,
  Summary,
} from "./api-types";

/** Every route the dashboard calls, under /v1. */

const segment = encodeURIComponent;
const metricPath = (metric: string) => `/v1/metrics/${segment(metric)}`;
const rulePath = (rule: string) => `/v1/monitoring-rules/${segment(rule)}`;
const asJson = { accept: "application/json" };

/** Where a metric's observers are registered and listed. */
export const metricObserversPath = (metric: string) => `${metricPath(metric)}/observers`;
/** Where observers that follow selectors are registered, and every observer is listed. */
export const selectorObserversPath = "/v1/observers";
/**
 * An observer's own path, under the collection it was registered in: a metric's observers and
 * selector observers answer the same routes there (status, attempts, pause, retry, replay, delete).
 */
export const observerPath = (collection: string, observer: string) => `${collection}/${segment(observer)}`;

export const api = {
  health: () => getJson<Health>("/v1/healthz"),
  /** What the overview shows, in one request: every metric and observer with its figures, and the intake's. */
  summary: () => getJson<Summary>("/v1/summary"),
  metricNames: (options: CallOptions = {}) => getJson<string[]>("/v1/metrics", options),
  metric: (metric: string) => getJson<Metric>(metricPath(metric)),
  declareMetric: (metric: string) => sendJson<Metric>("PUT", metricPath(metric)),
  recentData: (metric: string, limit: number) => getJson<RecentDatum[]>(`${metricPath(metric)}/data?limit=${limit}`),
  observers: (metric: string) => getJson<Observer[]>(metricObserversPath(metric)),
  observer: (path: string) => getJson<ObserverReport>(path),
  selectorObserver: (path: string) => getJson<SelectorObserverReport>(path),
  attempts: (path: string, limit: number) => getJson<Attempt[]>(`${path}/attempts?limit=${limit}`),
  /** Registers an observer in `collection`; `created` is false when the same one was registered already (200, not 201). */
  addObserver: async (collection: string, registration: Record<string, unknown>) => {
    const response = await callApi("POST", collection, {
      body: JSON.stringify(registration),
      contentType: "application/json",
    });
    return { created: response.status === 201, observer: (await response.json()) as RegisteredObserver };
  },
  setObserverState: (path: string, state: Exclude<ObserverState, "disabled">) =>
    sendJson<ObserverReport>("PATCH", path, { state }),
  replay: (path: string) => sendJson<{ data: number }>("POST", `${path}/replay`),
  retryNow: (path: string) => sendJson<ObserverReport>("POST", `${path}/retry`),
  deleteObserver: (path: string) => callApi("DELETE", path),
  model: () => getJson<Model>("/v1/resources"),
  collectors: () => getJson<CollectorState[]>("/v1/data-collector-states"),
  rules: () => getJson<{ monitoringRules: Rule[] }>("/v1/monitoring-rules", asJson),
  rule: (rule: string) => getJson<RuleReport>(rulePath(rule), asJson),
  setRuleEnabled: (rule: string, enabled: boolean) => sendJson<Rule>("PATCH", rulePath(rule), { enabled }),
  /** The rule as a document of the original's XML, as GET answers it by default. */
  ruleDocument: async (rule: string) => (await callApi("GET", rulePath(rule), { accept: "application/xml" })).text(),
  deleteRule: (rule: string) => callApi("DELETE", rulePath(rule)),
  /** A rule document as its text: XML or JSON, told apart by its first character as the service does. */
  installRules: (document: string) =>
    callApi("POST", "/v1/monitoring-rules", {
      body: document,
      contentType: document
        .replace(/^\uFEFF/, "")
        .trimStart()
        .startsWith("<")
        ? "application/xml"
        : "application/json",
    }),
};
