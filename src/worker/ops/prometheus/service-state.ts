import { collectorRegistry } from "../../collectors/collector-registry";
import type { CollectorRecord } from "../../collectors/collector-store";
import { intakeRoutes, type RouteCounts, usage } from "../../common/usage";
import { loopsRefused } from "../../http/loop-check";
import { farFromNowAccepted } from "../../intake/far-from-now-count";
import { metricCatalogStub } from "../../metrics/metric-catalog";
import { metricStub } from "../../metrics/metric-object";
import { ruleStub } from "../../rules/rule-object";
import { ruleRegistry } from "../../rules/rule-registry";
import type { RuleStatus } from "../../rules/rule-view-schema";
import type { DeliveryStatus, ObserverState } from "../../vocabulary/delivery";
import type { Family, Labels } from "./exposition";

/** How many objects are asked at once: a scrape must not open a request per metric all together. */
const concurrentReads = 20;

async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += concurrentReads) {
    results.push(...(await Promise.all(items.slice(start, start + concurrentReads).map(read))));
  }
  return results;
}

interface ObserverSample {
  labels: Labels;
  state: ObserverState;
  status: DeliveryStatus;
}

const observerStates: readonly ObserverState[] = ["active", "paused", "disabled"];

function counter(name: string, help: string, samples: Family["samples"]): Family {
  return { name, help, type: "counter", samples };
}

function gauge(name: string, help: string, samples: Family["samples"]): Family {
  return { name, help, type: "gauge", samples };
}

function observerFamilies(observers: readonly ObserverSample[], now: number): Family[] {
  const each = (value: (observer: ObserverSample) => number) =>
    observers.map((observer) => ({ labels: observer.labels, value: value(observer) }));
  return [
    counter(
      "tower_observer_delivered_data_total",
      "Data delivered to the observer.",
      each((o) => o.status.delivered),
    ),
    counter(
      "tower_observer_failed_attempts_total",
      "Delivery attempts to the observer that failed.",
      each((o) => o.status.failed),
    ),
    gauge(
      "tower_observer_dead_data",
      "Data tried for the whole retry schedule, kept for replay.",
      each((o) => o.status.dead),
    ),
    counter(
      "tower_observer_dropped_data_total",
      "Data dropped: dead past their retention, or over the backlog's cap.",
      each((o) => o.status.dropped),
    ),
    gauge(
      "tower_observer_backlog_data",
      "Data waiting in the observer's backlog.",
      each((o) => o.status.backlog),
    ),
    gauge(
      "tower_observer_oldest_backlog_age_seconds",
      "How long the oldest datum of the backlog has waited since it was accepted (0 when the backlog is empty).",
      each((o) =>
        o.status.oldestBacklogAt === null ? 0 : Math.max(0, (now - Date.parse(o.status.oldestBacklogAt)) / 1000),
      ),
    ),
    gauge(
      "tower_observer_state",
      "1 for the observer's state (active, paused or disabled), 0 for the others.",
      observers.flatMap((observer) =>
        observerStates.map((state) => ({
          labels: { ...observer.labels, state },
          value: observer.state === state ? 1 : 0,
        })),
      ),
    ),
  ];
}

function ruleFamilies(rules: readonly { id: string; status: RuleStatus }[]): Family[] {
  const each = (value: (status: RuleStatus) => number) =>
    rules.map(({ id, status }) => ({ labels: { rule: id }, value: value(status) }));
  return [
    gauge(
      "tower_rule_enabled",
      "1 if the monitoring rule is enabled.",
      each((status) => (status.enabled ? 1 : 0)),
    ),
    counter(
      "tower_rule_windows_evaluated_total",
      "Windows the rule closed with data in them.",
      each((status) => status.windowsEvaluated),
    ),
    counter(
      "tower_rule_data_read_total",
      "Data the rule took into its windows (or passed through).",
      each((status) => status.dataRead),
    ),
    counter(
      "tower_rule_data_emitted_total",
      "Output data the rule sent.",
      each((status) => status.dataEmitted),
    ),
    counter(
      "tower_rule_data_late_total",
      "Data that came after their windows had closed.",
      each((status) => status.dataLate),
    ),
  ];
}

function collectorFamilies(collectors: readonly CollectorRecord[], now: number): Family[] {
  return [
    gauge("tower_data_collectors", "Data collectors registered (the original's protocol).", [
      { labels: {}, value: collectors.length },
    ]),
    gauge(
      "tower_data_collector_last_heard_seconds",
      "Seconds since the data collector was last heard from (registration, keep-alive or configuration).",
      collectors.map((collector) => ({
        labels: { collector: collector.id },
        value: Math.max(0, (now - collector.lastHeardAt) / 1000),
      })),
    ),
  ];
}

/** What each way in accepted, refused and skipped, as this isolate counted it since it started. */
function intakeFamilies(): Family[] {
  const each = (value: (counts: RouteCounts) => number) =>
    intakeRoutes.map((route) => ({ labels: { route }, value: value(usage.intake[route]) }));
  return [
    counter(
      "tower_intake_data_accepted_total",
      "Data accepted by the route (its path without /v1), since this instance started.",
      each((counts) => counts.dataAccepted),
    ),
    counter(
      "tower_intake_refused_total",
      "Lines (line protocol), series (remote write) or data points (OTLP) refused while the rest of their request was accepted.",
      each((counts) => counts.refused),
    ),
    counter(
      "tower_intake_string_fields_skipped_total",
      "String values that are no number (line-protocol string fields, data collectors' strings), which are no data.",
      each((counts) => counts.stringFieldsSkipped),
    ),
    counter(
      "tower_intake_stale_markers_skipped_total",
      "Prometheus stale markers, which end a series rather than carry a value.",
      each((counts) => counts.staleMarkersSkipped),
    ),
    counter(
      "tower_intake_far_from_now_total",
      "Data accepted stamped before 2000 or more than a day ahead: most likely in the wrong unit (seconds, or line " +
        "protocol without precision=) or from a wrong clock.",
      intakeRoutes.map((route) => ({ labels: { route }, value: farFromNowAccepted[route] })),
    ),
    counter(
      "tower_intake_loops_refused_total",
      "Requests refused (508) because their tower-edge-via named this service: data of its own deliveries.",
      intakeRoutes.map((route) => ({ labels: { route }, value: loopsRefused[route] })),
    ),
  ];
}

/**
 * The service's own state as metric families: per way in what it accepted and refused, per metric the data accepted, per observer its
 * delivery status and state, per rule its windows and outputs, per data collector when it was last heard from. Reads every metric's and rule's
 * object (a few at a time), so a scrape costs one request per metric and per rule.
 */
export async function serviceStateFamilies(env: Env): Promise<Family[]> {
  const now = Date.now();
  const names = await metricCatalogStub(env).names();
  const metrics = await inBatches(names, async (name) => ({
    name,
    report: await metricStub(env, name).healthReport(),
  }));
  const present = metrics.flatMap(({ name, report }) => (report ? [{ name, report }] : []));
  const observers = present.flatMap(({ name, report }) =>
    report.observers.map((observer) => ({
      labels: { metric: name, observer: observer.id, format: observer.format, protocol: observer.protocol },
      state: observer.state,
      status: observer.status,
    })),
  );
  const installed = await ruleRegistry(env).list();
  const rules = (
    await inBatches(installed, async ({ id }) => ({ id, status: await ruleStub(env, id).status() }))
  ).flatMap(({ id, status }) => (status ? [{ id, status }] : []));
  const collectors = await collectorRegistry(env).list();
  return [
    counter(
      "tower_metric_data_accepted_total",
      "Data of the metric consumed from the intake queue.",
      present.map(({ name, report }) => ({ labels: { metric: name }, value: report.dataAccepted })),
    ),
    ...observerFamilies(observers, now),
    ...ruleFamilies(rules),
    ...collectorFamilies(collectors, now),
    ...intakeFamilies(),
  ];
}
