import SnappyJS from "snappyjs";
import { expect } from "vitest";
import { ProtobufReader } from "../../../src/worker/intake/common/protobuf-reader";
import { encodeRequest } from "../../../src/worker/intake/otlp/testing/otlp-protobuf-encoder";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder";

/** The time of the data these requests carry, in milliseconds. */
export const agentDataMs = 1_700_000_000_000;

/**
 * One way an agent sends data, for tests that run the same case on every agent route: how its
 * clients send data, and how it answers a refusal (each protocol has its own error shape).
 */
export interface AgentRoute {
  /** The route and the encoding, for test titles. */
  name: string;
  path: string;
  /** The status of an accepted request. */
  success: 200 | 204;
  /** A request of `count` data of `metric` (its resource `vm1`), as the route's clients send it. */
  send(metric: string, count: number): RequestInit;
  /** A request of the route's content type whose body is `compressed`, sent with Content-Encoding: gzip. */
  sendGzip(compressed: Uint8Array): RequestInit;
  /** Checks that `response` is the route's refusal with `status`, and gives its message. */
  refusalMessage(response: Response, status: number): Promise<string>;
}

const lineProtocolType = "text/plain; charset=utf-8";
const protobufType = "application/x-protobuf";

const lines = (metric: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${metric},host=vm1 value=${index} ${agentDataMs + index}000000\n`).join(
    "",
  );

function writeRequest(metric: string, count: number): Uint8Array {
  const samples = Array.from({ length: count }, (_, index) => ({ value: index, timestamp: agentDataMs + index }));
  return encodeWriteRequest([{ labels: { __name__: metric, instance: "vm1" }, samples }]);
}

function otlpRequest(metric: string, count: number) {
  const dataPoints = Array.from({ length: count }, (_, index) => ({
    timeUnixNano: `${agentDataMs + index}000000`,
    asDouble: index,
  }));
  return {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: "host.name", value: { stringValue: "vm1" } }] },
        scopeMetrics: [{ metrics: [{ name: metric, gauge: { dataPoints } }] }],
      },
    ],
  };
}

/** google.rpc.Code of the statuses these tests meet. */
const rpcCodes: Record<number, number> = { 400: 3, 401: 16, 413: 8, 415: 3, 503: 14, 508: 2 };
/** InfluxDB 2.x's error codes of the statuses these tests meet. */
const influxV2Codes: Record<number, string> = {
  400: "invalid",
  401: "unauthorized",
  413: "request too large",
  503: "unavailable",
  508: "loop detected",
};

function expectStatus(response: Response, status: number, contentType: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(contentType);
}

const gzipped = (contentType: string) => (compressed: Uint8Array) => ({
  body: compressed,
  headers: { "content-type": contentType, "content-encoding": "gzip" },
});

export const influxV1Route: AgentRoute = {
  name: "/write",
  path: "/write",
  success: 204,
  send: (metric, count) => ({ body: lines(metric, count), headers: { "content-type": lineProtocolType } }),
  sendGzip: gzipped(lineProtocolType),
  async refusalMessage(response, status) {
    expectStatus(response, status, /^application\/json/);
    const { error } = (await response.json()) as { error: string };
    expect(response.headers.get("x-influxdb-error")).toBe(error);
    return error;
  },
};

export const influxV2Route: AgentRoute = {
  name: "/api/v2/write",
  path: "/api/v2/write",
  success: 204,
  send: influxV1Route.send,
  sendGzip: gzipped(lineProtocolType),
  async refusalMessage(response, status) {
    expectStatus(response, status, /^application\/json/);
    const { code, message } = (await response.json()) as { code: string; message: string };
    expect(code).toBe(influxV2Codes[status]);
    return message;
  },
};

export const remoteWriteRoute: AgentRoute = {
  name: "/api/v1/write",
  path: "/api/v1/write",
  success: 204,
  send: (metric, count) => ({
    body: SnappyJS.compress(writeRequest(metric, count)),
    headers: { "content-type": protobufType, "content-encoding": "snappy" },
  }),
  sendGzip: gzipped(protobufType),
  async refusalMessage(response, status) {
    expectStatus(response, status, /^text\/plain/);
    const text = await response.text();
    expect(text.endsWith("\n")).toBe(true);
    return text.trimEnd();
  },
};

export const otlpJsonRoute: AgentRoute = {
  name: "/otlp/v1/metrics (JSON)",
  path: "/otlp/v1/metrics",
  success: 200,
  send: (metric, count) => ({
    body: JSON.stringify(otlpRequest(metric, count)),
    headers: { "content-type": "application/json" },
  }),
  sendGzip: gzipped("application/json"),
  async refusalMessage(response, status) {
    expectStatus(response, status, /^application\/json/);
    const { code, message } = (await response.json()) as { code: number; message: string };
    expect(code).toBe(rpcCodes[status]);
    return message;
  },
};

export const otlpProtobufRoute: AgentRoute = {
  name: "/otlp/v1/metrics (protobuf)",
  path: "/otlp/v1/metrics",
  success: 200,
  send: (metric, count) => ({
    body: encodeRequest(otlpRequest(metric, count)),
    headers: { "content-type": protobufType },
  }),
  sendGzip: gzipped(protobufType),
  async refusalMessage(response, status) {
    expectStatus(response, status, /^application\/x-protobuf/);
    const reader = new ProtobufReader(new Uint8Array(await response.arrayBuffer()));
    const rpcStatus = { code: 0, message: "" };
    while (reader.hasMore()) {
      const field = reader.field();
      if (field === 1) rpcStatus.code = reader.varint();
      else if (field === 2) rpcStatus.message = reader.string();
      else reader.skip(reader.type);
    }
    expect(rpcStatus.code).toBe(rpcCodes[status]);
    return rpcStatus.message;
  },
};

/** Every agent route that takes data, each OTLP encoding on its own. */
export const agentRoutes = [influxV1Route, influxV2Route, remoteWriteRoute, otlpJsonRoute, otlpProtobufRoute];

/** `chunks` gzipped, as an agent compresses its bodies. */
export async function gzip(...chunks: (string | Uint8Array)[]): Promise<Uint8Array> {
  const compressed = new Blob(chunks).stream();
  return new Uint8Array(await new Response(compressed.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}
