import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { javaAppRegistration } from "../support/data-collectors.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { type CollectorDescription, type ScriptedCollector, scriptedCollector } from "./support/scripted-collector.ts";
import { eventually, type Service, startService } from "./support/service.ts";

/*
 * The original's data collectors end to end, on the service as `npm start` runs it: a collector
 * written from the protocol alone registers, a rule installed afterwards shows in its
 * configuration, its data reach the rule through the stream endpoint, and the rule's output reaches
 * an HTTP observer; a restart keeps its registration and the data it had sent, and a collector
 * removed behind its back registers again under its old id.
 */

let service: Service;
let observer: HttpReceiver;
const collectors: ScriptedCollector[] = [];

beforeAll(async () => {
  service = await startService();
  observer = await startHttpReceiver();
});

afterAll(async () => {
  for (const collector of collectors) collector.stop();
  await service?.stop();
  await observer?.close();
});

/** The Java App collector with a keep-alive due before each configuration sync, its clock 20 times faster. */
function javaAppCollector(fields: Partial<CollectorDescription> = {}): ScriptedCollector {
  const collector = scriptedCollector(
    () => service.url,
    { ...javaAppRegistration, keepAlive: 15, configSyncPeriod: 30, ...fields },
    0.05,
  );
  collectors.push(collector);
  return collector;
}

const method = "register_2047568";

function averages(): { resourceId: string; value: number; timestamp: number }[] {
  return observer.received
    .flatMap(
      (request) =>
        JSON.parse(request.body) as { metric: string; resourceId: string; value: number; timestamp: number }[],
    )
    .filter((datum) => datum.metric === "CollectedAverageResponseTime");
}

/** Sends the values together, and waits until the collector's flush was answered 200. */
async function sendAll(collector: ScriptedCollector, values: number[]): Promise<void> {
  const before = collector.dataSent;
  for (const value of values) collector.send("ResponseTime", method, value);
  await eventually(() => collector.dataSent === before + values.length, 10_000, { what: "the flush" });
}

describe("a collector of the original's protocol", () => {
  it("registers, receives the configuration of a rule installed later, and its data are aggregated and delivered", async () => {
    const collector = javaAppCollector();
    await collector.start();
    expect(collector.log[0]).toBe("POST /v1/data-collectors → 201");

    const installed = await service.call("POST", "/v1/monitoring-rules", {
      monitoringRules: [
        {
          id: "collected-average",
          timeStep: 2,
          timeWindow: 2,
          allowedLatenessSeconds: 1,
          monitoredTargets: [{ class: "Method", type: "register" }],
          collectedMetric: { metricName: "ResponseTime", parameters: { samplingProbability: "1" } },
          metricAggregation: { aggregateFunction: "Average", groupingClass: "Method" },
          actions: [{ name: "OutputMetric", parameters: { metric: "CollectedAverageResponseTime" } }],
        },
      ],
    });
    expect(installed.status).toBe(204);
    const observed = await service.call("POST", "/v1/metrics/CollectedAverageResponseTime/observers", {
      format: "TOWER/JSON",
      callbackUrl: observer.url,
    });
    expect(observed.status).toBe(201);

    const configuration = await eventually(() => collector.configuration.ResponseTime, 10_000, {
      what: "the configuration",
    });
    expect(configuration).toEqual([
      {
        parameters: { samplingProbability: "1" },
        targetResources: [["Method", "register", null]],
        daUrl: `${service.url}/streams/${encodeURIComponent("http://www.modaclouds.eu/streams/ResponseTime")}`,
        dataFormat: "TOWER/JSON",
      },
    ]);
    expect(collector.log).toContain(`GET /v1/data-collectors/${collector.id}/keepalive → 204`);
    expect(collector.log).toContain(`GET /v1/data-collectors/${collector.id}/configuration → 200`);

    // Sent and taken from the intake queue into the rule's open window, then the service stops (as a
    // crash does: the local queue is in memory, see restart-crash.test.ts) and starts again on its state.
    await sendAll(collector, [100, 200, 300]);
    await eventually(
      async () => (await service.call("GET", "/v1/metrics/ResponseTime/data")).body.length === 3,
      10_000,
      {
        what: "the data consumed",
      },
    );
    await service.restart();
    const first = await eventually(() => averages()[0], 20_000, { what: "the first average" });
    expect(first).toMatchObject({ resourceId: method, value: 200 });

    // The registration survived: the collector goes on without registering again, at the new address.
    await eventually(() => collector.configuration.ResponseTime?.[0]?.daUrl.startsWith(service.url), 10_000, {
      what: "the configuration after the restart",
    });
    expect(collector.reregistrations).toBe(0);
    await sendAll(collector, [10, 30]);
    const second = await eventually(() => averages()[1], 20_000, { what: "the second average" });
    expect(second).toMatchObject({ resourceId: method, value: 20 });
    // Nothing but the expected answers, and no answer while the service was down.
    expect(collector.log.filter((line) => !/→ (20[014]|no answer)$/.test(line))).toEqual([]);
  });

  it("registers again by PUT under its old id after a 404", async () => {
    const collector = javaAppCollector();
    await collector.start();
    const id = collector.id!;
    expect((await service.call("DELETE", `/v1/data-collectors/${id}`)).status).toBe(204);
    // The count rises as the PUT leaves; its answer is logged when it arrives.
    await eventually(() => collector.log.some((line) => line.startsWith(`PUT /v1/data-collectors/${id} →`)), 10_000, {
      what: "the registration again",
    });
    expect(collector.log).toContain(`PUT /v1/data-collectors/${id} → 201`);
    expect((await service.call("GET", `/v1/data-collectors/${id}`)).status).toBe(200);
    expect(collector.stopped).toBe(false);
  });

  it("expires when it stops, and its resources leave the model; a live collector's come back", async () => {
    // Registered as a collector that dies at once does: the original's client asks for ten seconds
    // at least, the service expires any period alike, and a short one spares the wait.
    const keepAliveMs = 3_000;
    const registeredAt = Date.now();
    const silent = await service.call("POST", "/v1/data-collectors", {
      resources: [{ clazz: "CloudProvider", type: "IaaS", id: "silent-provider" }],
      monitoredResourcesByMetric: {},
      keepAlive: keepAliveMs / 1000,
      configSyncPeriod: 30,
    });
    expect(silent.status).toBe(201);
    expect((await service.call("GET", "/v1/resources/silent-provider")).status).toBe(200);
    // Its resources leave the model once its keep-alive ran out, and not before.
    await eventually(async () => (await service.call("GET", "/v1/resources/silent-provider")).status === 404, 10_000, {
      what: "the resource's removal",
    });
    expect(Date.now() - registeredAt).toBeGreaterThanOrEqual(keepAliveMs);
    expect((await service.call("GET", `/v1/data-collectors/${silent.body.id}`)).status).toBe(404);

    const live = javaAppCollector({
      resources: [{ clazz: "CloudProvider", type: "IaaS", id: "live-provider" }],
      monitoredResourcesByMetric: {},
    });
    await live.start();
    expect((await service.call("DELETE", "/v1/resources/live-provider")).status).toBe(204);
    await eventually(async () => (await service.call("GET", "/v1/resources/live-provider")).status === 200, 10_000, {
      what: "the restore",
    });
  });
});
