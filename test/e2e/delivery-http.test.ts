import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatumInput, monitoringNamespace, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, sleep, startService } from "./support/service.ts";

let service: Service;
const receivers: HttpReceiver[] = [];

async function receiver(): Promise<HttpReceiver> {
  const started = await startHttpReceiver();
  receivers.push(started);
  return started;
}

async function observe(metric: string, body: Record<string, unknown>): Promise<string> {
  const response = await service.call("POST", `/v1/metrics/${encodeURIComponent(metric)}/observers`, body);
  expect(response.status).toBe(201);
  return response.body.id as string;
}

async function post(data: DatumInput[]): Promise<void> {
  const response = await service.call("POST", "/monitoringdata", rdfJsonBody(data));
  expect(response.status).toBe(204);
}

async function status(metric: string, observerId: string) {
  return (await service.call("GET", `/v1/metrics/${encodeURIComponent(metric)}/observers/${observerId}`)).body;
}

beforeAll(async () => {
  service = await startService();
  for (const metric of ["cpu", "memory", "flaky", "dead", "signed", "gone", "strict"]) {
    expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
  }
});

afterAll(async () => {
  await service?.stop();
  await Promise.all(receivers.map((started) => started.close()));
});

describe("delivery to HTTP observers", () => {
  it("delivers each format's exact body, and only the observed metric's data", async () => {
    const rdf = await receiver();
    const tower = await receiver();
    const graphite = await receiver();
    const influx = await receiver();
    const memory = await receiver();
    await observe("cpu", { callbackUrl: `${rdf.url}/rdf` });
    await observe("cpu", { format: "tower/json", callbackUrl: `${tower.url}/tower` });
    await observe("cpu", { format: "GRAPHITE", callbackUrl: graphite.url });
    await observe("cpu", { format: "INFLUXDB", callbackUrl: influx.url });
    await observe("memory", { format: "TOWER/JSON", callbackUrl: memory.url });

    await post([
      { id: "d1", metric: "cpu", timestamp: 1409223851698, value: "0.11416644992590952e0", resourceId: "frontend 1" },
      { id: "d2", metric: "cpu", timestamp: 1409223852000, value: "-3", resourceId: "vm,2" },
    ]);

    await eventually(() => [rdf, tower, graphite, influx].every((started) => started.received.length > 0));
    const [rdfRequest] = rdf.received;
    expect(rdfRequest!.path).toBe("/rdf");
    expect(rdfRequest!.headers["content-type"]).toBe("application/rdf+json");
    expect(JSON.parse(rdfRequest!.body)).toEqual({
      d1: {
        [`${monitoringNamespace}metric`]: [{ type: "literal", value: "cpu" }],
        [`${monitoringNamespace}timestamp`]: [
          { type: "literal", value: "1409223851698", datatype: "http://www.w3.org/2001/XMLSchema#integer" },
        ],
        [`${monitoringNamespace}value`]: [
          { type: "literal", value: expect.any(String), datatype: "http://www.w3.org/2001/XMLSchema#double" },
        ],
        [`${monitoringNamespace}resourceId`]: [
          { type: "literal", value: "frontend 1", datatype: "http://www.w3.org/2001/XMLSchema#string" },
        ],
      },
      d2: expect.any(Object),
    });
    expect(Number(JSON.parse(rdfRequest!.body).d1[`${monitoringNamespace}value`][0].value)).toBe(0.11416644992590952);

    expect(tower.received[0]!.headers["content-type"]).toBe("application/json");
    expect(tower.received[0]!.body).toBe(
      '[{"resourceId":"frontend 1","metric":"cpu","value":0.11416644992590952,"timestamp":1409223851698},' +
        '{"resourceId":"vm,2","metric":"cpu","value":-3,"timestamp":1409223852000}]',
    );
    expect(graphite.received[0]!.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(graphite.received[0]!.body).toBe("frontend_1.cpu 0.11416644992590952 1409223851\nvm_2.cpu -3 1409223852\n");
    expect(influx.received[0]!.body).toBe(
      "cpu,resourceId=frontend\\ 1 value=0.11416644992590952 1409223851698000000\n" +
        "cpu,resourceId=vm\\,2 value=-3 1409223852000000000\n",
    );
    // One payload per observer for the batch, and nothing for another metric's observer.
    expect([rdf, tower, graphite, influx].map((started) => started.received.length)).toEqual([1, 1, 1, 1]);
    expect(memory.received).toEqual([]);
  });

  it("retries an observer that fails twice from its backlog until it has every datum, without duplicating a healthy one", async () => {
    const flaky = await receiver();
    const healthy = await receiver();
    const flakyId = await observe("flaky", { format: "GRAPHITE", callbackUrl: flaky.url });
    await observe("flaky", { format: "GRAPHITE", callbackUrl: `${healthy.url}/healthy` });
    flaky.failNext(2, 503);

    await post([
      { id: "a", metric: "flaky", timestamp: 1000, value: 1, resourceId: "r" },
      { id: "b", metric: "flaky", timestamp: 2000, value: 2, resourceId: "r" },
    ]);

    await eventually(() => flaky.received.length === 1, 15_000);
    expect(flaky.attempts).toBe(3);
    expect(flaky.received[0]!.body).toBe("r.flaky 1 1\nr.flaky 2 2\n");
    // The same payload each time, with the webhook-id of the first attempt.
    expect(new Set(flaky.requests.map((request) => request.body)).size).toBe(1);
    expect(new Set(flaky.requests.map((request) => request.headers["webhook-id"])).size).toBe(1);
    expect(healthy.received.map((request) => request.body)).toEqual(["r.flaky 1 1\nr.flaky 2 2\n"]);
    const observerStatus = await eventually(async () => {
      const current = await status("flaky", flakyId);
      return current.status?.delivered === 2 ? current.status : undefined;
    }, 10_000);
    expect(observerStatus).toMatchObject({
      delivered: 2,
      failed: 2,
      dead: 0,
      backlog: 0,
      lastError: "HTTP 503 from the observer",
    });
    expect(observerStatus.lastSuccessAt).toEqual(expect.any(String));
    // The attempt log: the batch's attempt, then two from the backlog, each of the same payload.
    const attempts = await service.call("GET", `/v1/metrics/flaky/observers/${flakyId}/attempts?limit=10`);
    expect(attempts.status).toBe(200);
    expect(
      attempts.body.map((attempt: { attempt: number; ok: boolean; webhookId: string }) => [
        attempt.attempt,
        attempt.ok,
        attempt.webhookId,
      ]),
    ).toEqual([3, 2, 1].map((attempt) => [attempt, attempt === 3, flaky.requests[0]!.headers["webhook-id"]]));
  });

  it("makes data an observer never accepts dead after the whole retry schedule, and shows them on its status", async () => {
    const dead = await receiver();
    dead.answerWith(500);
    const deadId = await observe("dead", { format: "TOWER/JSON", callbackUrl: dead.url });

    await post([{ id: "x", metric: "dead", timestamp: 5000, value: 5, resourceId: "r" }]);

    const observerStatus = await eventually(async () => {
      const current = await status("dead", deadId);
      return current.status?.dead === 1 ? current.status : undefined;
    }, 15_000);
    // The first attempt and one per step of the schedule (0.2, 0.4, 0.8 s, jittered), or one more
    // when the jittered steps add up to less than the schedule's 1.4 s.
    expect(dead.attempts).toBeGreaterThanOrEqual(4);
    expect(dead.attempts).toBeLessThanOrEqual(5);
    expect(observerStatus).toMatchObject({
      delivered: 0,
      dead: 1,
      dropped: 0,
      lost: 1,
      backlog: 0,
      nextAttemptAt: null,
      lastError: "HTTP 500 from the observer",
    });
    expect(observerStatus.failed).toBe(dead.attempts);
    // Dead data are not tried any more.
    const attemptsWhenDead = dead.attempts;
    await sleep(1_500);
    expect(dead.attempts).toBe(attemptsWhenDead);
  });

  it("signs deliveries of an observer with a secret (Standard Webhooks)", async () => {
    const signed = await receiver();
    const secret = "a-secret-of-thirty-two-characters";
    await observe("signed", { format: "TOWER/JSON", callbackUrl: signed.url, secret });

    await post([{ id: "s", metric: "signed", timestamp: 7000, value: 7, resourceId: "r" }]);

    await eventually(() => signed.received.length === 1);
    const { headers, body } = signed.received[0]!;
    const id = headers["webhook-id"] as string;
    const timestamp = headers["webhook-timestamp"] as string;
    expect(id).toMatch(/^msg_/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("queues nothing of a rejected request", async () => {
    const strict = await receiver();
    await observe("strict", { format: "GRAPHITE", callbackUrl: strict.url });
    const rejected = await service.call("POST", "/monitoringdata", {
      ...rdfJsonBody([{ id: "ok", metric: "strict", timestamp: 1000, value: 1, resourceId: "rejected" }]),
      ...rdfJsonBody([{ id: "bad", metric: "strict", timestamp: 1000, value: "one", resourceId: "rejected" }]),
    });
    expect(rejected.status).toBe(400);
    await post([{ id: "ok", metric: "strict", timestamp: 2000, value: 2, resourceId: "accepted" }]);

    // A datum of the rejected request, had it been queued, would have come before the accepted one.
    await eventually(() => strict.received.length === 1);
    expect(strict.received.map((request) => request.body)).toEqual(["accepted.strict 2 2\n"]);
  });

  it("removes an observer that answers 410 Gone", async () => {
    const gone = await receiver();
    gone.answerWith(410);
    const goneId = await observe("gone", { callbackUrl: gone.url });

    await post([{ id: "g", metric: "gone", timestamp: 1, value: 1, resourceId: "r" }]);

    await eventually(async () => (await service.call("GET", `/v1/metrics/gone/observers/${goneId}`)).status === 404);
    expect(gone.attempts).toBe(1);
  });
});
