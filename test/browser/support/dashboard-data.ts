import { rdfJsonBody } from "../../../tools/testing/monitoring-data.ts";
import { eventually, type Service } from "../../e2e/support/service.ts";

/*
 * A service with something to show: a model of two cloud providers, a location, three VMs (two in
 * a node of a rack), a PaaS database, three components and their methods; CPU and response-time metrics with a few minutes of data; observers in each
 * state, of a metric and by selector; a rule that averages the CPU per VM and one that is disabled. Shared by the browser
 * tests and the screenshots (tools/screenshots.ts).
 */

export const cpuMetric = "CPUUtilization";
export const responseTimeMetric = "ResponseTime";
export const averageRule = "AverageCPUPerVM";
/** The metric the average rule outputs. */
export const averageMetric = "AverageCPU";
/** The selector of an observer that follows both CPU metrics. */
export const cpuSelector = '{__name__=~".*CPU.*"}';

export const dashboardModel = {
  cloudProviders: [
    { id: "amazon", type: "IaaS" },
    { id: "azure", type: "IaaS" },
  ],
  locations: [{ id: "eu-west", type: "Region" }],
  vMs: [
    { id: "frontend1", type: "Frontend", cloudProvider: "amazon", location: "eu-west", numberOfCPUs: 2 },
    { id: "frontend2", type: "Frontend", cloudProvider: "amazon", location: "eu-west", numberOfCPUs: 2 },
    { id: "backend1", type: "Backend", cloudProvider: "azure", numberOfCPUs: 8 },
  ],
  paaSServices: [{ id: "answers-db", type: "Database", cloudProvider: "azure" }],
  nodes: [{ id: "blade1", type: "Blade", vms: ["frontend1", "frontend2"] }],
  racks: [{ id: "rack1", type: "Rack42", nodes: ["blade1"] }],
  internalComponents: [
    {
      id: "mic1",
      type: "Mic",
      providedMethods: ["mic1-register", "mic1-answerQuestions", "mic1-saveAnswers"],
      requiredComponents: ["frontend1"],
    },
    { id: "mic2", type: "Mic", providedMethods: ["mic2-register"], requiredComponents: ["frontend2"] },
    {
      id: "answers-store",
      type: "Store",
      providedMethods: ["store-read", "store-write"],
      requiredComponents: ["backend1", "answers-db"],
    },
  ],
  methods: [
    { id: "mic1-register", type: "register" },
    { id: "mic1-answerQuestions", type: "answerQuestions" },
    { id: "mic1-saveAnswers", type: "saveAnswers" },
    { id: "mic2-register", type: "register" },
    { id: "store-read", type: "read" },
    { id: "store-write", type: "write" },
  ],
};

const vms = dashboardModel.vMs.map((vm) => vm.id);
const methods = ["mic1-register", "mic1-answerQuestions", "store-read"];

/** A smooth, repeatable CPU load per VM, between about 0.1 and 0.8. */
function cpuAt(vm: number, time: number): number {
  const seconds = time / 1000;
  const load = 0.3 + 0.18 * vm + 0.12 * Math.sin(seconds / 23 + vm * 2) + 0.05 * Math.sin(seconds / 5 + vm);
  return Math.round(load * 1000) / 1000;
}

function responseTimeAt(method: number, time: number): number {
  const seconds = time / 1000;
  return Math.round(120 + 90 * method + 60 * Math.sin(seconds / 17 + method) + 25 * Math.sin(seconds / 4));
}

let sequence = 0;

/** The CPU of every VM and the response time of some methods at each of `times`. */
async function postData(service: Service, times: readonly number[]): Promise<void> {
  const data = times.flatMap((time) => [
    ...vms.map((resourceId, vm) => ({ metric: cpuMetric, resourceId, value: cpuAt(vm, time), timestamp: time })),
    ...methods.map((resourceId, method) => ({
      metric: responseTimeMetric,
      resourceId,
      value: responseTimeAt(method, time),
      timestamp: time,
    })),
  ]);
  const body = rdfJsonBody(
    data.map((datum) => {
      sequence += 1;
      return { id: `dashboard-${sequence}`, ...datum };
    }),
  );
  const answer = await service.call("POST", "/v1/monitoringdata", body);
  if (answer.status !== 204) throw new Error(`POST /v1/monitoringdata answered ${answer.status}`);
}

/** Data of the last `seconds`, `spacingMs` apart, posted at once. */
export async function postHistory(service: Service, seconds: number, spacingMs = 5_000): Promise<void> {
  const now = Date.now();
  const times = Array.from(
    { length: Math.floor((seconds * 1000) / spacingMs) },
    (_, index) => now - seconds * 1000 + index * spacingMs,
  );
  await postData(service, times);
}

/** Data stamped now, posted once; resolves when the service has accepted them, as its pages will show them. */
export async function postLatest(service: Service): Promise<void> {
  const now = Date.now();
  await postData(service, [now]);
  await eventually(
    async () => {
      // Among the most recent the service keeps: others may have posted since.
      const recent = await service.call("GET", `/v1/metrics/${cpuMetric}/data?limit=1000`);
      return (recent.body as { timestamp: number }[]).some((datum) => datum.timestamp === now);
    },
    30_000,
    { what: "the latest data accepted" },
  );
}

/** Data stamped now, once a second for `seconds`: what a rule's windows take. */
export async function postLive(service: Service, seconds: number): Promise<void> {
  for (let second = 0; second < seconds; second += 1) {
    await postData(service, [Date.now()]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function expectStatus(answer: Promise<{ status: number; body: unknown }>, expected: number[], what: string) {
  const { status, body } = await answer;
  if (!expected.includes(status)) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

/** The average rule: each VM's CPU averaged over windows of two seconds, closed a second after their end. */
export const averageRuleDocument = {
  monitoringRules: [
    {
      id: averageRule,
      label: "Average CPU per VM",
      timeStep: 2,
      timeWindow: 2,
      allowedLatenessSeconds: 1,
      monitoredTargets: [{ class: "VM" }],
      collectedMetric: { metricName: cpuMetric },
      metricAggregation: { aggregateFunction: "Average", groupingClass: "VM" },
      actions: [{ name: "OutputMetric", parameters: { metric: averageMetric, resourceId: "ID", value: "METRIC" } }],
    },
  ],
};

/** A rule installed disabled, as XML: slow methods, by their response time's 95th percentile. */
export const slowMethodsRuleXml = `<monitoringRules xmlns="http://www.modaclouds.eu/xsd/1.0/monitoring_rules_schema">
  <monitoringRule id="SlowMethods" label="Slow methods" startEnabled="false" timeStep="10" timeWindow="30">
    <monitoredTargets><monitoredTarget class="Method"/></monitoredTargets>
    <collectedMetric metricName="${responseTimeMetric}"/>
    <metricAggregation aggregateFunction="Percentile" groupingClass="Method">
      <parameter name="thPercentile">95</parameter>
    </metricAggregation>
    <condition>METRIC &gt; 400</condition>
    <actions>
      <action name="OutputMetric">
        <parameter name="metric">SlowMethodResponseTime</parameter>
        <parameter name="resourceId">ID</parameter>
        <parameter name="value">METRIC</parameter>
      </action>
    </actions>
  </monitoringRule>
</monitoringRules>`;

/**
 * The model, the two metrics with a few minutes of history, observers (`healthyUrl` takes its
 * data, `downUrl` refuses them, a third is paused; two of them follow selectors) and both rules. The disabled rule goes in as XML
 * through fetch, as the dashboard's upload sends it.
 */
export async function seedDashboard(
  service: Service,
  options: { healthyUrl: string; downUrl: string; historySeconds?: number },
): Promise<void> {
  await expectStatus(service.call("PUT", "/v1/resources", dashboardModel), [204], "PUT /v1/resources");
  await expectStatus(
    service.call("PUT", `/v1/metrics/${cpuMetric}`, { description: "CPU utilisation of the VMs", unit: "ratio" }),
    [200, 201],
    "PUT metric",
  );
  await expectStatus(
    service.call("PUT", `/v1/metrics/${responseTimeMetric}`, {
      description: "Response time of the methods",
      unit: "ms",
    }),
    [200, 201],
    "PUT metric",
  );
  await expectStatus(
    service.call("POST", "/v1/monitoring-rules", averageRuleDocument),
    [204],
    "POST /v1/monitoring-rules (JSON)",
  );
  const xml = await fetch(`${service.url}/v1/monitoring-rules`, {
    method: "POST",
    headers: { "content-type": "application/xml" },
    body: slowMethodsRuleXml,
  });
  if (xml.status !== 204)
    throw new Error(`POST /v1/monitoring-rules (XML) answered ${xml.status}: ${await xml.text()}`);

  // A data collector that never expires, sending the response times of any resource.
  await expectStatus(
    service.call("PUT", "/v1/data-collectors/dashboard-collector", {
      monitoredResourcesByMetric: { [responseTimeMetric]: [{ clazz: "Resource", id: "mic1-register" }] },
      keepAlive: 0,
      configSyncPeriod: 30,
    }),
    [201],
    "PUT /v1/data-collectors/dashboard-collector",
  );

  const observers = `/v1/metrics/${cpuMetric}/observers`;
  await expectStatus(
    service.call("POST", observers, { format: "TOWER/JSON", callbackUrl: options.healthyUrl }),
    [201],
    "healthy observer",
  );
  await expectStatus(
    service.call("POST", observers, { format: "RDF/JSON", callbackUrl: options.downUrl }),
    [201],
    "failing observer",
  );
  const paused = (await expectStatus(
    service.call("POST", `/v1/metrics/${responseTimeMetric}/observers`, {
      format: "INFLUXDB",
      callbackUrl: `${options.healthyUrl}/influx`,
    }),
    [201],
    "paused observer",
  )) as { id: string };
  await expectStatus(
    service.call("PATCH", `/v1/metrics/${responseTimeMetric}/observers/${paused.id}`, { state: "paused" }),
    [200],
    "pause",
  );
  await expectStatus(
    service.call("POST", `/v1/metrics/${averageMetric}/observers`, {
      format: "GRAPHITE",
      callbackUrl: `${options.healthyUrl}/graphite`,
    }),
    [201],
    "observer of the rule's output",
  );
  await expectStatus(
    service.call("POST", "/v1/observers", {
      match: [cpuSelector],
      format: "TOWER/JSON",
      callbackUrl: `${options.healthyUrl}/cpu`,
    }),
    [201],
    "selector observer",
  );
  await expectStatus(
    service.call("POST", "/v1/observers", {
      match: [`${responseTimeMetric}{__resource__=~"mic1-.*"}`],
      format: "RDF/JSON",
      callbackUrl: `${options.downUrl}/slow`,
    }),
    [201],
    "failing selector observer",
  );
  await postHistory(service, options.historySeconds ?? 180);
}
