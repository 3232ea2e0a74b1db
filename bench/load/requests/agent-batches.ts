import { compress } from "snappyjs";
import { sdkExport } from "../../../src/worker/intake/otlp/testing/sdk-export.ts";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder.ts";

/*
 * Batches as the agents send them, at the sizes they send: Telegraf's default batch (1,000
 * metrics, here its cpu input's lines), Prometheus's remote write shard (at most 2,000 samples a
 * request) and an OpenTelemetry SDK's export (here 1,000 points). Every batch of a kind holds the
 * same series, as an agent's successive batches do, at the next collection time. Nothing here is
 * Node's: the parsers' micro-benchmarks, which run in workerd, read the same batches.
 */

/** Telegraf's cpu input: its fields, each a datum, in the order it adds them. */
export const telegrafCpuFields = [
  "usage_user",
  "usage_system",
  "usage_idle",
  "usage_nice",
  "usage_iowait",
  "usage_irq",
  "usage_softirq",
  "usage_steal",
  "usage_guest",
  "usage_guest_nice",
] as const;

/** Telegraf's default metric_batch_size. */
export const telegrafBatchLines = 1_000;
const cpusPerHost = 8;
const telegrafIntervalSeconds = 10;

const hostName = (index: number) => `host-${String(index).padStart(3, "0")}`;
/** Collection times: whole intervals, counted from a fixed second a little in the past. */
const collectionSecond = (interval: number, intervalSeconds: number) =>
  Math.floor(Date.now() / 1000 / intervalSeconds) * intervalSeconds - 3_600 + interval * intervalSeconds;

/**
 * `count` line-protocol bodies as Telegraf's InfluxDB outputs send its cpu input's metrics: one
 * line per CPU of each host (tags sorted, as Telegraf writes them), the usage fields as the
 * floats it measures, a timestamp in nanoseconds; body `n` is collection `n`.
 */
export function telegrafCpuBodies(count: number): string[] {
  return Array.from({ length: count }, (_, interval) => {
    const timestamp = `${collectionSecond(interval, telegrafIntervalSeconds)}000000000`;
    let body = "";
    for (let line = 0; line < telegrafBatchLines; line++) {
      const tags = `cpu=cpu${line % cpusPerHost},host=${hostName(Math.floor(line / cpusPerHost))}`;
      const fields = telegrafCpuFields.map((field) => `${field}=${Math.random() * 100}`).join(",");
      body += `cpu,${tags} ${fields} ${timestamp}\n`;
    }
    return body;
  });
}

/** Prometheus's default max_samples_per_send. */
export const remoteWriteSamples = 2_000;
const nodeExporterFamilies = [
  "node_cpu_seconds_total",
  "node_memory_MemAvailable_bytes",
  "node_filesystem_avail_bytes",
  "node_network_receive_bytes_total",
  "node_network_transmit_bytes_total",
  "node_disk_read_bytes_total",
  "node_disk_written_bytes_total",
  "node_load1",
  "node_context_switches_total",
  "node_interrupts_total",
] as const;
const scrapeIntervalSeconds = 15;

/**
 * `count` remote-write bodies as Prometheus sends them (snappy block format around a
 * WriteRequest, labels sorted by name): one sample of each of 2,000 series of node_exporter
 * families scraped from 25 hosts; body `n` carries scrape `n`.
 */
export function remoteWriteBodies(count: number): Uint8Array[] {
  const families = nodeExporterFamilies.length;
  const seriesPerHost = families * cpusPerHost;
  return Array.from({ length: count }, (_, scrape) => {
    const timestamp = collectionSecond(scrape, scrapeIntervalSeconds) * 1000;
    const series = Array.from({ length: remoteWriteSamples }, (_, index) => ({
      labels: [
        ["__name__", nodeExporterFamilies[index % families]!],
        ["cpu", String(Math.floor(index / families) % cpusPerHost)],
        ["instance", `${hostName(Math.floor(index / seriesPerHost))}:9100`],
        ["job", "node"],
      ] satisfies [string, string][],
      samples: [{ value: Math.random() * 1e9, timestamp }],
    }));
    return compress(encodeWriteRequest(series));
  });
}

const otlpInstruments = 10;
const otlpAttributeSets = 100;
/** Points per OTLP export: every attribute set of every instrument. */
export const otlpPoints = otlpInstruments * otlpAttributeSets;

/**
 * `count` OTLP/HTTP exports as the OpenTelemetry SDK serializes them, in both encodings: 10
 * instruments, gauges and counters of doubles, each measured on 100 attribute sets, from one
 * host's resource.
 */
export async function otlpExports(count: number): Promise<{ protobuf: Uint8Array; json: unknown }[]> {
  const exports = [];
  for (let index = 0; index < count; index++) {
    const recordings = Array.from({ length: otlpInstruments }, (_, instrument) => ({
      kind: instrument % 2 === 0 ? ("gauge" as const) : ("counter" as const),
      integer: false,
      measurements: Array.from({ length: otlpAttributeSets }, (_, set) => ({
        value: Math.random() * 1_000,
        attributes: { cpu: `cpu${set % cpusPerHost}`, device: `disk${Math.floor(set / cpusPerHost)}` },
      })),
    }));
    exports.push(await sdkExport(recordings, { "service.name": "bench-agent", "host.name": hostName(0) }));
  }
  const points = (exports[0]?.resourceMetrics.scopeMetrics ?? []).reduce(
    (total, { metrics }) => total + metrics.reduce((sum, { dataPoints }) => sum + dataPoints.length, 0),
    0,
  );
  if (points !== otlpPoints) throw new Error(`the SDK exported ${points} points, not ${otlpPoints}`);
  return exports.map(({ protobuf, json }) => ({ protobuf, json }));
}
