import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { startTestRelay, type TestRelay } from "./support/relay.ts";
import { eventually, type Service, startService } from "./support/service.ts";

/*
 * The service's /prometheus and the relay's /metrics as Prometheus itself judges them: Debian's
 * promtool (package prometheus, installed by .ci/install-promtool.sh) lints each exposition.
 */

const hasPromtool = spawnSync("promtool", ["--version"]).status === 0;
if (!hasPromtool) {
  console.warn("promtool not installed (apt-get install prometheus): skipping the exposition checks.");
}

function promtoolCheck(exposition: string): { status: number | null; output: string } {
  const run = spawnSync("promtool", ["check", "metrics"], { input: exposition, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe.skipIf(!hasPromtool)("promtool check metrics", () => {
  let service: Service;
  let relay: TestRelay;

  beforeAll(async () => {
    service = await startService();
    relay = await startTestRelay();
  });

  afterAll(async () => {
    await service?.stop();
    await relay?.close();
  });

  it("passes on the service's /prometheus with metrics, observers in every state and a rule", async () => {
    await service.call("PUT", "/v1/metrics/prom.cpu");
    const active = await service.call("POST", "/v1/metrics/prom.cpu/observers", {
      callbackUrl: "http://127.0.0.1:9/a",
    });
    const paused = await service.call("POST", "/v1/metrics/prom.cpu/observers", {
      callbackUrl: "http://127.0.0.1:9/p",
    });
    expect([active.status, paused.status]).toEqual([201, 201]);
    await service.call("PATCH", `/v1/metrics/prom.cpu/observers/${paused.body.id}`, { state: "paused" });
    const rule = await service.call("POST", "/v1/monitoring-rules", {
      monitoringRules: [
        {
          id: "prom-max",
          timeStep: 1,
          timeWindow: 1,
          allowedLatenessSeconds: 0,
          monitoredTargets: [{ class: "VM" }],
          collectedMetric: { metricName: "prom.cpu" },
          metricAggregation: { aggregateFunction: "Max" },
          actions: [{ name: "OutputMetric", parameters: { metric: "prom.cpu.max" } }],
        },
      ],
    });
    expect(rule.status).toBe(204);
    const data = [{ id: "p1", metric: "prom.cpu", timestamp: Date.now(), value: 1, resourceId: "vm" }];
    expect((await service.call("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);

    const exposition = await eventually(async () => {
      const text = (await service.raw("GET", "/v1/prometheus")).text;
      return text.includes('tower_metric_data_accepted_total{metric="prom.cpu"} 1') ? text : undefined;
    });
    expect(exposition).toContain('state="paused"} 1');
    expect(promtoolCheck(exposition)).toEqual({ status: 0, output: "" });
  });

  it("passes on the relay's /metrics, with its delivery-latency histogram", async () => {
    await relay.deliver([{ id: "d", protocol: "TCP", host: "127.0.0.1", port: 1, payload: "m 1 1\n" }]);
    const metrics = await relay.call("/metrics");
    expect(metrics.body).toContain("relay_delivery_duration_seconds_bucket");
    expect(promtoolCheck(metrics.body)).toEqual({ status: 0, output: "" });
  });
});
