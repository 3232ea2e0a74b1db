import { env } from "cloudflare:workers";
import { vi } from "vitest";
import type { MetricObject } from "../../../src/worker/metrics/metric-object";

/**
 * Makes the Worker reach `replacement` instead of the Durable Object of the metric `name`; other
 * metrics keep theirs. `vi.restoreAllMocks()` undoes it.
 */
export function replaceMetricObject(name: string, replacement: Partial<Record<keyof MetricObject, unknown>>): void {
  const get = env.METRIC.get.bind(env.METRIC);
  const replaced = env.METRIC.idFromName(name);
  vi.spyOn(env.METRIC, "get").mockImplementation((id, options) =>
    id.equals(replaced) ? (replacement as unknown as DurableObjectStub<MetricObject>) : get(id, options),
  );
}
