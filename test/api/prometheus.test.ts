import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { request, sendJson } from "./support/http";
import { addObserver, declareMetric } from "./support/metrics";

async function scrape(): Promise<string> {
  const response = await request("GET", "/prometheus");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return response.text();
}

describe("GET /prometheus", () => {
  it("exposes per metric data accepted, per observer delivery status and state, per rule its windows and outputs", async () => {
    await declareMetric("prom.cpu");
    const observer = await addObserver("prom.cpu", { callbackUrl: "http://127.0.0.1:9/prom" });
    const installed = await sendJson("POST", "/monitoring-rules", {
      monitoringRules: [
        {
          id: "prom-rule",
          timeStep: 60,
          timeWindow: 60,
          monitoredTargets: [{ class: "VM" }],
          collectedMetric: { metricName: "prom.cpu" },
          metricAggregation: { aggregateFunction: "Max" },
          actions: [{ name: "OutputMetric", parameters: { metric: "prom.cpu.max" } }],
        },
      ],
    });
    expect(installed.status).toBe(204);
    const data = [{ id: "p1", metric: "prom.cpu", timestamp: Date.now(), value: 1, resourceId: "vm" }];
    expect((await sendJson("POST", "/monitoringdata", rdfJsonBody(data))).status).toBe(204);

    let text = "";
    for (
      let tries = 0;
      tries < 100 && !text.includes('tower_metric_data_accepted_total{metric="prom.cpu"} 1');
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      text = await scrape();
    }
    const labels = `metric="prom.cpu",observer="${observer.id}",format="RDF/JSON",protocol="HTTP"`;
    expect(text).toContain("# TYPE tower_metric_data_accepted_total counter\n");
    expect(text).toContain('tower_metric_data_accepted_total{metric="prom.cpu"} 1\n');
    expect(text).toContain("# TYPE tower_observer_backlog_data gauge\n");
    expect(text).toMatch(
      new RegExp(`tower_observer_failed_attempts_total\\{${labels.replaceAll("/", "\\/")}\\} \\d+\\n`),
    );
    expect(text).toContain(`tower_observer_state{${labels},state="active"} 1\n`);
    expect(text).toContain(`tower_observer_state{${labels},state="paused"} 0\n`);
    expect(text).toContain(`tower_observer_oldest_backlog_age_seconds{${labels}}`);
    expect(text).toContain('tower_rule_enabled{rule="prom-rule"} 1\n');
    expect(text).toContain('tower_rule_data_read_total{rule="prom-rule"} 1\n');
    expect(text).toContain('tower_rule_windows_evaluated_total{rule="prom-rule"} 0\n');
    expect((await request("DELETE", "/monitoring-rules/prom-rule")).status).toBe(204);
  });

  it("escapes label values", async () => {
    await declareMetric('prom "quoted" \\ name');
    expect(await scrape()).toContain('tower_metric_data_accepted_total{metric="prom \\"quoted\\" \\\\ name"} 0\n');
  });
});
