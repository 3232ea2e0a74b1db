import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatumInput, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { noDeliveriesYet } from "../support/delivery-status.ts";
import { referenceModel, referenceModelStored } from "../support/model.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, startService } from "./support/service.ts";

/*
 * What a restart of the Worker on the same on-disk state keeps. The service is given a model,
 * metrics, observers and a backlog, and restarted once; each test then checks one of them.
 */

const observersPath = "/v1/metrics/FrontendCPUUtilization/observers";
const backlogMetric = "restarted";

let service: Service;
/** The backlog's observer: down until the test of the backlog starts it. */
let receiver: HttpReceiver;
/** What the service answered before the restart. */
let before: { model: unknown; graphite: any; webhook: any; backlogObserverPath: string };

async function call(method: string, path: string, body: unknown, expectedStatus: number) {
  const answer = await service.call(method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(expectedStatus);
  return answer.body;
}

const backlogStatus = async () => (await service.call("GET", before.backlogObserverPath)).body.status;

/** An observer whose receiver is down, with 12 data in its backlog, numbered 1 to 12 in the order posted. */
async function observerWithBacklog(): Promise<string> {
  receiver = await startHttpReceiver();
  await receiver.stop();
  await call("PUT", `/v1/metrics/${backlogMetric}`, undefined, 201);
  const registered = await call(
    "POST",
    `/v1/metrics/${backlogMetric}/observers`,
    { format: "TOWER/JSON", callbackUrl: `${receiver.url}/hook` },
    201,
  );
  const observerPath = `/v1/metrics/${backlogMetric}/observers/${registered.id}`;
  const status = async () => (await service.call("GET", observerPath)).body.status;
  let sequence = 0;
  const post = async (count: number) => {
    const data: DatumInput[] = Array.from({ length: count }, () => {
      sequence += 1;
      return {
        id: `d${sequence}`,
        metric: backlogMetric,
        timestamp: 1_000 * sequence,
        value: sequence,
        resourceId: "vm",
      };
    });
    await call("POST", "/monitoringdata", rdfJsonBody(data), 204);
  };
  // The first post fails (connection refused) and starts the backlog; the next ones join it.
  await post(3);
  await eventually(async () => (await status()).failed > 0, 10_000, { intervalMs: 25, what: "a failed attempt" });
  await post(3);
  await post(3);
  await eventually(async () => (await status()).backlog === 9, 10_000, {
    intervalMs: 25,
    what: "9 data in the backlog",
  });
  await post(3);
  await eventually(async () => (await status()).backlog === 12, 10_000, {
    intervalMs: 25,
    what: "12 data in the backlog",
  });
  return observerPath;
}

/** The reference model, uploaded; answers the model as GET returned it. */
async function modelStored(): Promise<unknown> {
  await call("PUT", "/v1/resources", referenceModel, 204);
  return call("GET", "/v1/resources", undefined, 200);
}

/** A metric with a Graphite observer and a paused webhook; answers both as registered. */
async function observersOneOfThemPaused(): Promise<{ graphite: any; webhook: any }> {
  await call("PUT", "/v1/metrics/FrontendCPUUtilization", { unit: "percent" }, 201);
  const graphite = await call(
    "POST",
    observersPath,
    { format: "GRAPHITE", protocol: "TCP", observerHost: "127.0.0.1", observerPort: 2003 },
    201,
  );
  const webhook = await call(
    "POST",
    observersPath,
    { callbackUrl: "http://127.0.0.1:9/hook", secret: "0123456789abcdef" },
    201,
  );
  await call("PATCH", `${observersPath}/${webhook.id}`, { state: "paused" }, 200);
  return { graphite, webhook };
}

beforeAll(async () => {
  // Retries every second or so for two minutes: the backlog's observer is down for less than that,
  // the restart included, so no datum is dead by the time it comes back.
  service = await startService({ RETRY_SCHEDULE: `0.5${",1".repeat(119)}` });

  // The backlog takes a few retries to build up; the model and the other observers meanwhile.
  const [model, { graphite, webhook }, backlogObserverPath] = await Promise.all([
    modelStored(),
    observersOneOfThemPaused(),
    observerWithBacklog(),
  ]);
  before = { model, graphite, webhook, backlogObserverPath };

  await service.restart();
});

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

describe("a restart of the Worker on the same on-disk state", () => {
  it("keeps the model", async () => {
    expect(before.model).toEqual(referenceModelStored);
    expect(await service.call("GET", "/v1/resources")).toEqual({ status: 200, body: before.model });
    expect(await service.call("GET", "/resources/mic1")).toEqual({
      status: 200,
      body: { clazz: "InternalComponent", ...referenceModel.internalComponents[0] },
    });
  });

  it("keeps metrics and observers, a paused one paused", async () => {
    const { graphite, webhook } = before;
    expect(await service.call("GET", "/metrics")).toEqual({
      status: 200,
      body: expect.arrayContaining(["FrontendCPUUtilization", backlogMetric]),
    });
    expect(await service.call("GET", "/metrics/FrontendCPUUtilization")).toMatchObject({
      status: 200,
      body: { id: "FrontendCPUUtilization", unit: "percent", observers: 2, dataAccepted: 0 },
    });
    expect(await service.call("GET", `${observersPath}/${graphite.id}`)).toEqual({
      status: 200,
      body: {
        id: graphite.id,
        format: "GRAPHITE",
        protocol: "TCP",
        observerHost: "127.0.0.1",
        observerPort: 2003,
        state: "active",
        status: noDeliveriesYet,
      },
    });
    expect(await service.call("GET", observersPath)).toEqual({
      status: 200,
      body: [graphite, { ...webhook, state: "paused" }],
    });
    // Registration stays idempotent across the restart: the same target finds the stored observer.
    const sameTarget = { format: "graphite", protocol: "tcp", observerHost: "127.0.0.1", observerPort: 2003 };
    expect(await service.call("POST", observersPath, sameTarget)).toEqual({ status: 200, body: graphite });
  });

  it("keeps an observer's backlog: once the observer is up, every datum arrives, in order", async () => {
    expect(await backlogStatus()).toMatchObject({ backlog: 12, delivered: 0, dead: 0, dropped: 0 });
    // Nothing touched the metric since the restart: its stored alarm alone resumes the retries.
    await receiver.start();
    await eventually(() => receiver.received.flatMap((request) => JSON.parse(request.body)).length >= 12, 15_000, {
      what: "every datum at the receiver",
    });
    const values = receiver.received.flatMap((request) => JSON.parse(request.body).map((datum: any) => datum.value));
    expect(values).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(receiver.received.every((request) => request.path === "/hook")).toBe(true);
    const final = await eventually(async () => {
      const current = await backlogStatus();
      return current.backlog === 0 ? current : undefined;
    }, 10_000);
    expect(final).toMatchObject({ delivered: 12, dead: 0, dropped: 0, lost: 0, nextAttemptAt: null });
  });
});
