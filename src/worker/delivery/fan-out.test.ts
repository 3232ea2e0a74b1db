import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readConfig } from "../config";
import { metricStub } from "../metrics/metric-object";
import { maxDataPerPayload, runDeliveryJobs } from "./fan-out";
import type { Datum } from "../intake/datum";

function data(count: number, metric: string): Datum[] {
  return Array.from({ length: count }, (_, index) => ({ id: `d${index}`, metric, timestamp: index, value: index, resourceId: "r" }));
}

describe("runDeliveryJobs", () => {
  it("splits a job larger than one payload into bounded payloads, and reports each one undelivered on its own", async () => {
    const metric = "sliced";
    await metricStub(env, metric).declareMetric(metric, {});
    const registration = await metricStub(env, metric).registerObserver(
      { format: "GRAPHITE", protocol: "TCP", observerHost: "127.0.0.1", observerPort: 2003 },
      10,
    );
    expect(registration.outcome).toBe("created");
    // No relay is configured in this test environment, so every TCP delivery fails and is returned.
    const config = { ...readConfig(env), RELAY_URL: "" };

    const undelivered = await runDeliveryJobs(env, config, [
      { metric, data: data(2 * maxDataPerPayload + 5, metric), attempts: 0 },
    ]);

    expect(undelivered.map((item) => item.data.length)).toEqual([maxDataPerPayload, maxDataPerPayload, 5]);
    expect(undelivered.every((item) => item.attempts === 1 && item.error === "no relay configured (RELAY_URL)")).toBe(true);
    expect(new Set(undelivered.map((item) => item.webhookId)).size).toBe(3);
  });
});
