import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterValue, relayToken, startTestRelay, type TestRelay } from "../../test/e2e/support/relay.ts";
import { startTcpReceiver, type TcpReceiver } from "../../test/e2e/support/socket-receivers.ts";

const bodyLimit = 2_048;
let relay: TestRelay;
let receiver: TcpReceiver;

beforeAll(async () => {
  relay = await startTestRelay({ RELAY_MAX_BODY_BYTES: String(bodyLimit) });
  receiver = await startTcpReceiver();
});
afterAll(async () => {
  await relay.close();
  await receiver.close();
});

function validBody(payload = "cpu 1 1\n"): string {
  return JSON.stringify({
    deliveries: [{ id: "1", protocol: "TCP", host: "127.0.0.1", port: receiver.port, payload }],
  });
}

function post(body: string, headers: Record<string, string> = {}) {
  return relay.call("/v1/deliveries", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${relayToken}`, ...headers },
    body,
  });
}

function problem(status: number, code: string, title: string, detail: string, errors?: unknown[]) {
  return {
    type: `urn:tower-edge:problem:${code}`,
    title,
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
}

describe("authentication", () => {
  const unauthorized = problem(401, "unauthorized", "Unauthorized", "A valid bearer token is required.");

  it.each<[string, Record<string, string>]>([
    ["without a token", {}],
    ["with a wrong token", { authorization: "Bearer not-the-token" }],
    ["with a longer token that starts like the right one", { authorization: `Bearer ${relayToken}x` }],
    ["with another scheme", { authorization: `Basic ${relayToken}` }],
  ])("answers 401 %s and delivers nothing", async (_, authorization) => {
    const response = await relay.call("/v1/deliveries", {
      method: "POST",
      headers: { "content-type": "application/json", ...authorization },
      body: validBody(),
    });

    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tower-edge-relay"');
    expect(response.body).toEqual(unauthorized);
    expect(receiver.connections).toBe(0);
  });
});

describe("request validation", () => {
  it("answers 400 with one error per problem, and delivers nothing", async () => {
    const response = await post(
      JSON.stringify({
        deliveries: [
          { id: "", protocol: "TCP", host: "127.0.0.1", port: 70_000, payload: "x" },
          { id: "2", protocol: "UDP", host: "127.0.0.1", port: receiver.port, records: [], packing: "lines" },
          { id: "3", protocol: "SCTP", host: "127.0.0.1", port: receiver.port },
          { id: "4", protocol: "TCP", host: "127.0.0.1", port: receiver.port, payload: "x", extra: true },
        ],
      }),
    );

    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.body).toEqual(
      problem(400, "validation-failed", "Request not valid", "The request has problems; see errors.", [
        { path: "/deliveries/0/id", message: "Too small: expected string to have >=1 characters" },
        { path: "/deliveries/0/port", message: "Too big: expected number to be <=65535" },
        { path: "/deliveries/1/records", message: "Too small: expected array to have >=1 items" },
        { path: "/deliveries/2/protocol", message: "Invalid discriminator value. Expected 'TCP' | 'UDP'" },
        { path: "/deliveries/3/extra", message: "Unknown field." },
      ]),
    );
    expect(receiver.connections).toBe(0);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const response = await post("{not json");

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: "urn:tower-edge:problem:malformed-json", status: 400 });
    expect(response.body.detail).toMatch(/^The body is not valid JSON: /);
  });

  it("answers 400 for an empty list of deliveries", async () => {
    const response = await post(JSON.stringify({ deliveries: [] }));

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "/deliveries", message: "Too small: expected array to have >=1 items" },
    ]);
  });

  it("answers 415 for a non-JSON content type", async () => {
    const response = await post(validBody(), { "content-type": "text/plain" });

    expect(response.status).toBe(415);
    expect(response.body).toEqual(
      problem(415, "unsupported-media-type", "Unsupported media type", "Expected application/json, got text/plain."),
    );
  });

  it("answers 413 for a body over the limit", async () => {
    const response = await post(validBody("x".repeat(bodyLimit)));

    expect(response.status).toBe(413);
    expect(response.body).toEqual(
      problem(
        413,
        "payload-too-large",
        "Payload too large",
        `The body is larger than the limit of ${bodyLimit} bytes.`,
      ),
    );
    expect(receiver.connections).toBe(0);
  });

  it("answers 413 for a chunked body that grows over the limit", async () => {
    const text = validBody("x".repeat(bodyLimit));
    const chunks = [text.slice(0, 1_000), text.slice(1_000)];
    const body = new ReadableStream({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });

    const response = await relay.call("/v1/deliveries", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${relayToken}` },
      body,
      duplex: "half",
    } as RequestInit);

    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ type: "urn:tower-edge:problem:payload-too-large", status: 413 });
    expect(receiver.connections).toBe(0);
  });
});

describe("routes", () => {
  it("answers /healthz", async () => {
    const response = await relay.call("/healthz");

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });

  it("answers 404 for an unknown path and 405 with Allow for a wrong method", async () => {
    const missing = await relay.call("/v1/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(problem(404, "not-found", "Resource not found", "No route matches /v1/nothing."));

    const wrongMethod = await relay.call("/v1/deliveries");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    expect(wrongMethod.body).toEqual(
      problem(405, "method-not-allowed", "Method not allowed", "GET is not allowed on /v1/deliveries."),
    );
  });
});

describe("/metrics", () => {
  it("serves Prometheus counters that follow deliveries and failures", async () => {
    const before = {
      deliveries: await counterValue(relay, "relay_deliveries_total", "tcp"),
      bytes: await counterValue(relay, "relay_bytes_total", "tcp"),
      failures: await counterValue(relay, "relay_failures_total", "tcp"),
      udpDeliveries: await counterValue(relay, "relay_deliveries_total", "udp"),
    };

    const response = await post(
      JSON.stringify({
        deliveries: [
          { id: "ok", protocol: "TCP", host: "127.0.0.1", port: receiver.port, payload: "metric 1 1\n" },
          { id: "refused", protocol: "TCP", host: "127.0.0.1", port: 1, payload: "metric 1 1\n" },
        ],
      }),
    );
    expect(response.status).toBe(200);

    const metrics = await relay.call("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(metrics.body).toContain(
      "# HELP relay_deliveries_total Deliveries completed: every byte written (TCP) or sent (UDP).\n" +
        "# TYPE relay_deliveries_total counter\n",
    );
    expect(metrics.body).toContain("# TYPE relay_bytes_total counter\n");
    expect(metrics.body).toContain("# TYPE relay_failures_total counter\n");
    expect(await counterValue(relay, "relay_deliveries_total", "tcp")).toBe(before.deliveries + 1);
    expect(await counterValue(relay, "relay_bytes_total", "tcp")).toBe(before.bytes + 11);
    expect(await counterValue(relay, "relay_failures_total", "tcp")).toBe(before.failures + 1);
    expect(await counterValue(relay, "relay_deliveries_total", "udp")).toBe(before.udpDeliveries);
    expect(metrics.body).toContain("# TYPE relay_delivery_duration_seconds histogram\n");
    expect(metrics.body).toMatch(/relay_delivery_duration_seconds_count\{protocol="tcp",outcome="delivered"\} [1-9]/);
    expect(metrics.body).toMatch(/relay_delivery_duration_seconds_count\{protocol="tcp",outcome="failed"\} [1-9]/);
    expect(metrics.body).toContain("# TYPE relay_process_resident_memory_bytes gauge\n");
  });
});
