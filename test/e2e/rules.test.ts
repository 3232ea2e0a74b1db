import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { referenceModel } from "../support/model.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, startService } from "./support/service.ts";

/*
 * Monitoring rules end to end, on the service as `npm start` runs it: data posted to the intake
 * reach a rule through the queue consumer, the rule's window closes on its alarm, and the output
 * goes through the intake queue to the observers of the output metric, or to another rule.
 * Windows are placed in the near future, so that data posted now are never late. The tests spend
 * their time waiting for windows to close, so they run at once, each with rules and metrics of its
 * own, on one service; but the restart takes a service of its own, since it would drop whatever
 * the other tests' data had in its in-memory queue.
 */

/** A service holding the reference model, and the requests the tests make of it. */
interface RulesService {
  readonly service: Service;
  install(...rules: Record<string, unknown>[]): Promise<void>;
  observe(metric: string, callbackUrl: string): Promise<void>;
  post(data: { metric: string; resourceId: string; value: number; timestamp: number }[]): Promise<void>;
  ruleStatus(id: string): Promise<Record<string, unknown>>;
}

/** The service of the tests that do not restart it. */
let shared: RulesService;
/** The service the restart test restarts. */
let restarted: RulesService;
const services: Service[] = [];
const receivers: HttpReceiver[] = [];

async function rulesService(): Promise<RulesService> {
  const service = await startService();
  services.push(service);
  const model = await service.call("PUT", "/v1/resources", referenceModel);
  expect(model.status).toBe(204);
  return {
    service,
    async install(...rules) {
      const answer = await service.call("POST", "/v1/monitoring-rules", { monitoringRules: rules });
      expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 204 });
    },
    async observe(metric, callbackUrl) {
      const answer = await service.call("POST", `/v1/metrics/${metric}/observers`, {
        format: "TOWER/JSON",
        callbackUrl,
      });
      expect(answer.status).toBe(201);
    },
    async post(data) {
      const body = rdfJsonBody(
        data.map((datum, index) => ({ id: `${datum.metric}-${datum.timestamp}-${index}`, ...datum })),
      );
      const answer = await service.call("POST", "/v1/monitoringdata", body);
      expect(answer.status).toBe(204);
    },
    async ruleStatus(id) {
      const response = await fetch(`${service.url}/v1/monitoring-rules/${id}`, {
        headers: { accept: "application/json" },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { status: Record<string, unknown> }).status;
    },
  };
}

beforeAll(async () => {
  [shared, restarted] = await Promise.all([rulesService(), rulesService()]);
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop()));
  for (const receiver of receivers) await receiver.close();
});

async function receiver(): Promise<HttpReceiver> {
  const started = await startHttpReceiver();
  receivers.push(started);
  return started;
}

/** The start of a window of `seconds` that begins at least two seconds from now. */
function nextWindowStart(seconds: number): number {
  const stepMs = seconds * 1000;
  return (Math.floor((Date.now() + 2_000) / stepMs) + 1) * stepMs;
}

function rule(fields: Record<string, unknown>) {
  return { startEnabled: true, timeStep: 2, timeWindow: 2, allowedLatenessSeconds: 1, ...fields };
}

function outputMetric(metric: string, value = "METRIC") {
  return [{ name: "OutputMetric", parameters: { metric, value, resourceId: "ID" } }];
}

function arrived(target: HttpReceiver): { resourceId: string; metric: string; value: number; timestamp: number }[] {
  return target.received.flatMap((request) => JSON.parse(request.body));
}

describe.concurrent("monitoring rules on the running service", () => {
  it("chains two rules through the model to an HTTP observer, with deterministic output", async () => {
    await shared.install(
      rule({
        id: "chain-average",
        monitoredTargets: [{ class: "Method" }],
        collectedMetric: { metricName: "chain.ResponseTime" },
        metricAggregation: { aggregateFunction: "Average", groupingClass: "Method" },
        actions: outputMetric("chain.AverageResponseTime"),
      }),
      rule({
        id: "chain-max-by-provider",
        monitoredTargets: [{ class: "Method" }],
        collectedMetric: { metricName: "chain.AverageResponseTime" },
        metricAggregation: { aggregateFunction: "Max", groupingClass: "CloudProvider" },
        condition: "METRIC > 100",
        actions: outputMetric("chain.MaxAverageByProvider"),
      }),
    );
    const averages = await receiver();
    const maxima = await receiver();
    await shared.observe("chain.AverageResponseTime", averages.url);
    await shared.observe("chain.MaxAverageByProvider", maxima.url);

    const start = nextWindowStart(2);
    await shared.post([
      { metric: "chain.ResponseTime", resourceId: "mic1-register", value: 100, timestamp: start + 100 },
      { metric: "chain.ResponseTime", resourceId: "mic1-register", value: 200, timestamp: start + 900 },
      { metric: "chain.ResponseTime", resourceId: "mic1-saveAnswers", value: 300, timestamp: start + 500 },
      { metric: "chain.ResponseTime", resourceId: "mic1-answerQuestions", value: 40, timestamp: start + 1_000 },
      { metric: "chain.ResponseTime", resourceId: "mic1-answerQuestions", value: 60, timestamp: start + 1_999 },
      // Not a resource of the model: ignored by the rule.
      { metric: "chain.ResponseTime", resourceId: "elsewhere", value: 9_999, timestamp: start + 10 },
      // The next window's: evaluated on its own.
      { metric: "chain.ResponseTime", resourceId: "mic1-register", value: 500, timestamp: start + 2_000 },
    ]);

    const windowEnd = start + 2_000;
    await eventually(() => arrived(averages).length >= 4, 20_000, { what: "both windows of the first rule" });
    expect(
      arrived(averages).toSorted((a, b) => a.timestamp - b.timestamp || a.resourceId.localeCompare(b.resourceId)),
    ).toEqual([
      { resourceId: "mic1-answerQuestions", metric: "chain.AverageResponseTime", value: 50, timestamp: windowEnd },
      { resourceId: "mic1-register", metric: "chain.AverageResponseTime", value: 150, timestamp: windowEnd },
      { resourceId: "mic1-saveAnswers", metric: "chain.AverageResponseTime", value: 300, timestamp: windowEnd },
      { resourceId: "mic1-register", metric: "chain.AverageResponseTime", value: 500, timestamp: windowEnd + 2_000 },
    ]);

    // The second rule's windows: the first holds the averages of the first window (max 300), the next one 500.
    await eventually(() => arrived(maxima).length >= 2, 20_000, { what: "the second rule's output" });
    expect(arrived(maxima).toSorted((a, b) => a.timestamp - b.timestamp)).toEqual([
      { resourceId: "amazon", metric: "chain.MaxAverageByProvider", value: 300, timestamp: windowEnd + 2_000 },
      { resourceId: "amazon", metric: "chain.MaxAverageByProvider", value: 500, timestamp: windowEnd + 4_000 },
    ]);
    expect(await shared.ruleStatus("chain-average")).toMatchObject({
      enabled: true,
      windowsEvaluated: 2,
      dataRead: 7,
      dataEmitted: 4,
      dataLate: 0,
      lastError: null,
    });
  }, 60_000);

  it("counts data for closed windows as late and aggregates nothing of them", async () => {
    await shared.install(
      rule({
        id: "lateness",
        timeStep: 1,
        timeWindow: 1,
        allowedLatenessSeconds: 0,
        monitoredTargets: [{ class: "VM" }],
        collectedMetric: { metricName: "late.Cpu" },
        metricAggregation: { aggregateFunction: "Count" },
        actions: outputMetric("late.Count"),
      }),
    );
    const counts = await receiver();
    await shared.observe("late.Count", counts.url);
    const longAgo = Date.now() - 60_000;
    await shared.post([
      { metric: "late.Cpu", resourceId: "frontend1", value: 1, timestamp: longAgo },
      { metric: "late.Cpu", resourceId: "frontend1", value: 2, timestamp: longAgo + 1 },
    ]);
    const status = await eventually(async () => {
      const current = await shared.ruleStatus("lateness");
      return current.dataLate === 2 ? current : undefined;
    }, 20_000);
    expect(status).toMatchObject({ dataRead: 0, windowsEvaluated: 0, dataEmitted: 0 });
    expect(counts.received).toEqual([]);
  }, 60_000);

  it("loses no window when the service restarts in the middle of it", async () => {
    await restarted.install(
      rule({
        id: "restart-sum",
        timeStep: 6,
        timeWindow: 6,
        monitoredTargets: [{ class: "VM", type: "Frontend" }],
        collectedMetric: { metricName: "restart.Cpu" },
        metricAggregation: { aggregateFunction: "Sum", groupingClass: "VM" },
        actions: outputMetric("restart.CpuSum"),
      }),
    );
    const start = nextWindowStart(6);
    await restarted.post([
      { metric: "restart.Cpu", resourceId: "frontend1", value: 1.5, timestamp: start + 1 },
      { metric: "restart.Cpu", resourceId: "frontend1", value: 2.5, timestamp: start + 2 },
    ]);
    await eventually(async () => (await restarted.ruleStatus("restart-sum")).dataRead === 2, 20_000, {
      what: "data in the window",
    });
    expect(Date.now()).toBeLessThan(start + 6_000);

    await restarted.service.restart();
    const sums = await receiver();
    await restarted.observe("restart.CpuSum", sums.url);
    await eventually(() => sums.received.length > 0, 30_000, { what: "the window closed after the restart" });
    expect(arrived(sums)).toEqual([
      { resourceId: "frontend1", metric: "restart.CpuSum", value: 4, timestamp: start + 6_000 },
    ]);
  }, 60_000);

  it("sends a RestCall rule's output as one request per datum, with the method asked for", async () => {
    const calls = await receiver();
    await shared.install(
      rule({
        id: "rest-put",
        monitoredTargets: [{ class: "Method", type: "register" }],
        collectedMetric: { metricName: "rest.ResponseTime" },
        metricAggregation: { aggregateFunction: "Min", groupingClass: "Method" },
        actions: [{ name: "RestCall", parameters: { url: `${calls.url}/hook`, method: "PUT" } }],
      }),
    );
    calls.failNext(1, 503);
    const start = nextWindowStart(2);
    await shared.post([
      { metric: "rest.ResponseTime", resourceId: "mic1-register", value: 7, timestamp: start + 1 },
      { metric: "rest.ResponseTime", resourceId: "mic1-register", value: 3, timestamp: start + 2 },
    ]);
    // The first call fails: it is retried from the calls' backlog like any delivery.
    await eventually(() => calls.received.length > 0, 30_000, { what: "the REST call" });
    expect(calls.requests.map((request) => request.status)).toEqual([503, 204]);
    const [call] = calls.received;
    expect(call).toMatchObject({ method: "PUT", path: "/hook" });
    expect(JSON.parse(call!.body)).toEqual([
      { resourceId: "mic1-register", metric: "tower.rule.rest-put.calls", value: 3, timestamp: start + 2_000 },
    ]);
    const report = await fetch(`${shared.service.url}/v1/monitoring-rules/rest-put`, {
      headers: { accept: "application/json" },
    });
    expect(((await report.json()) as { calls: unknown }).calls).toMatchObject({ delivered: 1, failed: 1, backlog: 0 });
  }, 60_000);

  it("groups through the whole ontology: methods by the rack and the location of the VMs they run on", async () => {
    const placement = await shared.service.call("POST", "/v1/resources", [
      { clazz: "Location", id: "eu-west", type: "Region" },
      { clazz: "VM", id: "frontend1", type: "Frontend", cloudProvider: "amazon", location: "eu-west", numberOfCPUs: 2 },
      { clazz: "Node", id: "blade1", type: "Blade", vms: ["frontend1"] },
      { clazz: "Rack", id: "rack1", type: "Rack42", nodes: ["blade1"] },
    ]);
    expect(placement.status).toBe(204);
    await shared.install(
      rule({
        id: "sum-by-rack",
        monitoredTargets: [{ class: "Method" }],
        collectedMetric: { metricName: "placement.Requests" },
        metricAggregation: { aggregateFunction: "Sum", groupingClass: "Rack" },
        actions: outputMetric("placement.RequestsByRack"),
      }),
      rule({
        id: "max-by-location",
        monitoredTargets: [{ class: "Method" }],
        collectedMetric: { metricName: "placement.Requests" },
        metricAggregation: { aggregateFunction: "Max", groupingClass: "Location" },
        actions: outputMetric("placement.MaxRequestsByLocation"),
      }),
    );
    const byRack = await receiver();
    const byLocation = await receiver();
    await shared.observe("placement.RequestsByRack", byRack.url);
    await shared.observe("placement.MaxRequestsByLocation", byLocation.url);

    const start = nextWindowStart(2);
    await shared.post([
      { metric: "placement.Requests", resourceId: "mic1-register", value: 3, timestamp: start + 100 },
      { metric: "placement.Requests", resourceId: "mic1-saveAnswers", value: 4, timestamp: start + 200 },
      // A VM is not a Method: the rules' targets leave it out.
      { metric: "placement.Requests", resourceId: "frontend1", value: 100, timestamp: start + 300 },
    ]);
    await eventually(() => arrived(byRack).length > 0 && arrived(byLocation).length > 0, 20_000, {
      what: "both rules' output",
    });
    expect(arrived(byRack)).toEqual([
      { resourceId: "rack1", metric: "placement.RequestsByRack", value: 7, timestamp: start + 2_000 },
    ]);
    expect(arrived(byLocation)).toEqual([
      { resourceId: "eu-west", metric: "placement.MaxRequestsByLocation", value: 4, timestamp: start + 2_000 },
    ]);
  }, 60_000);
});
