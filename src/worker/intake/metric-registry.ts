import { metricStub } from "../metrics/metric-object";

/*
 * Metrics this isolate has already registered. The intake registers a metric when it first sees
 * it, so a known metric costs no Durable Object request per datum. The queue consumer registers
 * again (for free, with its observer look-up), which repairs a stale entry, e.g. after a metric was
 * deleted through another isolate.
 */
const registered = new Set<string>();
const maxRemembered = 10_000;

export async function registerMetrics(env: Env, names: Iterable<string>): Promise<void> {
  const unknown = [...names].filter((name) => !registered.has(name));
  if (unknown.length === 0) return;
  await Promise.all(unknown.map((name) => metricStub(env, name).ensureMetric(name)));
  if (registered.size + unknown.length > maxRemembered) registered.clear();
  for (const name of unknown) registered.add(name);
}

export function forgetMetric(name: string): void {
  registered.delete(name);
}
