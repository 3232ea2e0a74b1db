import { isA, rootClass } from "../model/ontology";
import type { RuleCollection } from "../rules/rule-registry";
import { collectorDataFormat } from "./collector-view-schema";
import type { MonitoredResource } from "./descriptor-schema";

/*
 * A data collector's configuration, as the original's manager computed it from the installed rules:
 * per metric the collector can send, what each rule collecting that metric asks for, when the rule
 * is about one of the resources the collector declared for it.
 */

/** The original's stream of a metric, which names the stream endpoint's path. */
export function streamOf(metric: string): string {
  return `http://www.modaclouds.eu/streams/${metric}`;
}

/** A rule's target as the original hands it: `[class, type, id]`, null where the rule names none. */
export type TargetResource = [string, string | null, string | null];

export interface CollectorConfiguration {
  parameters: Record<string, string>;
  targetResources: TargetResource[];
  daUrl: string;
  dataFormat: typeof collectorDataFormat;
}

type Target = RuleCollection["monitoredTargets"][number];

/**
 * The original's matching: the resource's class is the target's class or below it (a resource
 * declared as `Resource` is of every class); a type both name must be equal; a set id decides.
 */
export function isAbout(target: Target, resource: MonitoredResource): boolean {
  const classMatches = resource.clazz === rootClass || isA(resource.clazz, target.class);
  if (!classMatches) return false;
  if (target.type !== undefined && resource.type !== undefined && target.type !== resource.type) return false;
  return target.id === undefined || target.id === resource.id;
}

function targetResource(target: Target): TargetResource {
  return [target.class, target.type ?? null, target.id ?? null];
}

/**
 * Per metric the collector declared, one configuration per distinct (parameters, targets) of the
 * rules that collect the metric and are about at least one of its resources for it; `daUrlOf`
 * gives the address its data go to. Metrics no rule asks for are left out, as the original did.
 */
export function collectorConfiguration(
  monitoredResourcesByMetric: Readonly<Record<string, readonly MonitoredResource[]>>,
  collections: readonly RuleCollection[],
  daUrlOf: (metric: string) => string,
): Record<string, CollectorConfiguration[]> {
  const configuration: Record<string, CollectorConfiguration[]> = {};
  for (const [metric, resources] of Object.entries(monitoredResourcesByMetric)) {
    const distinct = new Map<string, CollectorConfiguration>();
    for (const { collectedMetric, monitoredTargets } of collections) {
      if (collectedMetric.metricName !== metric) continue;
      if (!monitoredTargets.some((target) => resources.some((resource) => isAbout(target, resource)))) continue;
      const parameters = Object.fromEntries(
        Object.entries(collectedMetric.parameters).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      const targetResources = monitoredTargets.map(targetResource);
      const key = JSON.stringify([parameters, targetResources]);
      if (!distinct.has(key)) {
        distinct.set(key, { parameters, targetResources, daUrl: daUrlOf(metric), dataFormat: collectorDataFormat });
      }
    }
    if (distinct.size > 0) configuration[metric] = [...distinct.values()];
  }
  return configuration;
}

/** The metrics the installed rules read that no rule produces: what collectors must provide. Sorted. */
export function requiredMetrics(collections: readonly RuleCollection[]): string[] {
  const produced = new Set(collections.map((collection) => collection.outputMetric));
  const read = new Set(collections.map((collection) => collection.collectedMetric.metricName));
  return [...read].filter((metric) => !produced.has(metric)).toSorted();
}
