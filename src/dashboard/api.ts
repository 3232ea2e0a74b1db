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
  Usage,
} from "./api-types";

/** Every route the dashboard calls, under /v1. */

const segment = encodeURIComponent;
const metricPath = (metric: string) => `/v1/metrics/${segment(metric)}`;
const observerPath = (metric: string, observer: string) => `${metricPath(metric)}/observers/${segment(observer)}`;
const rulePath = (rule: string) => `/v1/monitoring-rules/${segment(rule)}`;
const asJson = { accept: "application/json" };

export const api = {
  health: () => getJson<Health>("/v1/healthz"),
  usage: () => getJson<Usage>("/v1/usage"),
  metricNames: (options: CallOptions = {}) => getJson<string[]>("/v1/metrics", options),
  metric: (metric: string) => getJson<Metric>(metricPath(metric)),
  declareMetric: (metric: string) => sendJson<Metric>("PUT", metricPath(metric)),
  recentData: (metric: string, limit: number) => getJson<RecentDatum[]>(`${metricPath(metric)}/data?limit=${limit}`),
  observers: (metric: string) => getJson<Observer[]>(`${metricPath(metric)}/observers`),
  observer: (metric: string, observer: string) => getJson<ObserverReport>(observerPath(metric, observer)),
  attempts: (metric: string, observer: string, limit: number) =>
    getJson<Attempt[]>(`${observerPath(metric, observer)}/attempts?limit=${limit}`),
  /** Registers an observer; `created` is false when the same one was registered already (200, not 201). */
  addObserver: async (metric: string, registration: Record<string, unknown>) => {
    const response = await callApi("POST", `${metricPath(metric)}/observers`, {
      body: JSON.stringify(registration),
      contentType: "application/json",
    });
    return { created: response.status === 201, observer: (await response.json()) as RegisteredObserver };
  },
  setObserverState: (metric: string, observer: string, state: Exclude<ObserverState, "disabled">) =>
    sendJson<ObserverReport>("PATCH", observerPath(metric, observer), { state }),
  replay: (metric: string, observer: string) =>
    sendJson<{ data: number }>("POST", `${observerPath(metric, observer)}/replay`),
  retryNow: (metric: string, observer: string) =>
    sendJson<ObserverReport>("POST", `${observerPath(metric, observer)}/retry`),
  deleteObserver: (metric: string, observer: string) => callApi("DELETE", observerPath(metric, observer)),
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
