import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatumInput, rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { noDeliveriesYet } from "../support/delivery-status.ts";
import { referenceModel, referenceModelStored } from "../support/model.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, startService } from "./support/service.ts";

/*
 * One service for the file: each test restarts it on its state and checks what it made itself
 * (its own metric), so that neither depends on what the other left.
 */
let service: Service;
let receiver: HttpReceiver | undefined;

beforeAll(async () => {
  // Retries every second or so for about 20 s: an observer is down for less than that.
  service = await startService({ RETRY_SCHEDULE: `0.5${",1".repeat(19)}` });
});

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

describe("a restart of the Worker on the same on-disk state", () => {
  it("keeps the model, metrics and observers", async () => {
    const observersPath = "/v1/metrics/FrontendCPUUtilization/observers";
    const call = service.call;
    expect(await call("PUT", "/v1/resources", referenceModel)).toEqual({ status: 204, body: undefined });
    const model = await call("GET", "/v1/resources");
    expect(model).toEqual({ status: 200, body: referenceModelStored });
    expect((await call("PUT", "/v1/metrics/FrontendCPUUtilization", { unit: "percent" })).status).toBe(201);
    const graphite = await call("POST", observersPath, {
      format: "GRAPHITE",
      protocol: "TCP",
      observerHost: "127.0.0.1",
      observerPort: 2003,
    });
    expect(graphite.status).toBe(201);
    const webhook = await call("POST", observersPath, {
      callbackUrl: "http://127.0.0.1:9/hook",
      secret: "0123456789abcdef",
    });
    expect(webhook.status).toBe(201);
    expect((await call("PATCH", `${observersPath}/${webhook.body.id}`, { state: "paused" })).status).toBe(200);
    await service.restart();

    expect(await call("GET", "/v1/resources")).toEqual(model);
    expect(await call("GET", "/resources/mic1")).toEqual({
      status: 200,
      body: { clazz: "InternalComponent", ...referenceModel.internalComponents[0] },
    });
    expect(await call("GET", "/metrics")).toMatchObject({
      status: 200,
      body: expect.arrayContaining(["FrontendCPUUtilization"]),
    });
    expect(await call("GET", "/metrics/FrontendCPUUtilization")).toMatchObject({
      status: 200,
      body: { id: "FrontendCPUUtilization", unit: "percent", observers: 2, dataAccepted: 0 },
    });
    expect(await call("GET", `${observersPath}/${graphite.body.id}`)).toEqual({
      status: 200,
      body: {
        id: graphite.body.id,
        format: "GRAPHITE",
        protocol: "TCP",
        observerHost: "127.0.0.1",
        observerPort: 2003,
        state: "active",
        status: noDeliveriesYet,
      },
    });
    // The paused state survives too.
    expect(await call("GET", observersPath)).toEqual({
      status: 200,
      body: [graphite.body, { ...webhook.body, state: "paused" }],
    });
    // Registration stays idempotent across the restart: the same target finds the stored observer.
    const sameTarget = { format: "graphite", protocol: "tcp", observerHost: "127.0.0.1", observerPort: 2003 };
    expect(await call("POST", observersPath, sameTarget)).toEqual({ status: 200, body: graphite.body });
  });

  it("keeps an observer's backlog: data posted while it is down arrive after the restart, every one, in order", async () => {
    receiver = await startHttpReceiver();
    await receiver.stop();
    const metric = "restarted";
    expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
    const registered = await service.call("POST", `/v1/metrics/${metric}/observers`, {
      format: "TOWER/JSON",
      callbackUrl: `${receiver.url}/hook`,
    });
    expect(registered.status).toBe(201);
    const observerPath = `/v1/metrics/${metric}/observers/${registered.body.id}`;
    const status = async () => (await service.call("GET", observerPath)).body.status;

    let sequence = 0;
    const post = async (count: number) => {
      const data: DatumInput[] = Array.from({ length: count }, () => {
        sequence += 1;
        return { id: `d${sequence}`, metric, timestamp: 1_000 * sequence, value: sequence, resourceId: "vm" };
      });
      expect((await service.call("POST", "/monitoringdata", rdfJsonBody(data))).status).toBe(204);
    };

    // The first post fails (connection refused) and starts the backlog; the next ones join it.
    await post(3);
    await eventually(async () => (await status()).failed > 0, 10_000, { what: "a failed attempt" });
    await post(3);
    await post(3);
    await eventually(async () => (await status()).backlog === 9, 10_000, { what: "9 data in the backlog" });

    await post(3);
    await eventually(async () => (await status()).backlog === 12, 10_000, { what: "12 data in the backlog" });

    // Nothing touches the metric after the restart: its stored alarm alone resumes the retries.
    await service.restart();
    expect(await status()).toMatchObject({ backlog: 12, delivered: 0, dead: 0, dropped: 0 });
    await receiver.start();
    await eventually(() => receiver!.received.flatMap((request) => JSON.parse(request.body)).length >= 12, 15_000, {
      what: "every datum at the receiver",
    });
    const values = receiver.received.flatMap((request) => JSON.parse(request.body).map((datum: any) => datum.value));
    expect(values).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(receiver.received.every((request) => request.path === "/hook")).toBe(true);
    const final = await eventually(async () => {
      const current = await status();
      return current.backlog === 0 ? current : undefined;
    }, 10_000);
    expect(final).toMatchObject({ delivered: 12, dead: 0, dropped: 0, lost: 0, nextAttemptAt: null });
  });
});
