import { gzipSync } from "node:zlib";
import {
  otlpExports,
  otlpPoints,
  remoteWriteBodies,
  remoteWriteSamples,
  telegrafBatchLines,
  telegrafCpuFields,
} from "./agent-batches.ts";
import type { IntakeRequests } from "./intake-requests.ts";

/* The agents' batches (agent-batches.ts) as the agents post them: path, content type and encoding. */

/** Telegraf's InfluxDB 1.x output posting `texts`, compressed as its `content_encoding` says. */
export function telegrafRequests(texts: readonly string[], encoding: "identity" | "gzip"): IntakeRequests {
  return {
    path: "/write?db=telegraf",
    bodies: encoding === "gzip" ? texts.map((text) => gzipSync(text)) : texts,
    contentType: "text/plain; charset=utf-8",
    headers: encoding === "gzip" ? { "content-encoding": "gzip" } : {},
    expectedStatus: 204,
    dataPerRequest: telegrafBatchLines * telegrafCpuFields.length,
  };
}

/** `count` remote-write requests as Prometheus sends them (see remoteWriteBodies). */
export function remoteWriteRequests(count: number): IntakeRequests {
  return {
    path: "/api/v1/write",
    bodies: remoteWriteBodies(count),
    contentType: "application/x-protobuf",
    headers: { "content-encoding": "snappy", "x-prometheus-remote-write-version": "0.1.0" },
    expectedStatus: 204,
    dataPerRequest: remoteWriteSamples,
  };
}

/** `count` OTLP/HTTP protobuf exports as the OpenTelemetry SDK sends them (see otlpExports). */
export async function otlpRequests(count: number): Promise<IntakeRequests> {
  return {
    path: "/otlp/v1/metrics",
    bodies: (await otlpExports(count)).map(({ protobuf }) => protobuf),
    contentType: "application/x-protobuf",
    expectedStatus: 200,
    dataPerRequest: otlpPoints,
  };
}
