import { decodeSnappyBlock } from "../../../src/worker/intake/remote-write/snappy.ts";
import { nestedDoubles } from "./protobuf-doubles.ts";
import { scanTowerJson } from "./tower-json-scan.ts";

/*
 * What an observer in one of the formats for metric backends (or TOWER/JSON, their anchor) gets,
 * read down to the values of its data, which in the bench are their sequence numbers.
 */

export const backendBenchFormats = ["PROMETHEUS", "INFLUXDB", "OTLP", "TOWER/JSON"] as const;
export type BackendBenchFormat = (typeof backendBenchFormats)[number];

/** WriteRequest → TimeSeries (1) → Sample (2) → value (1). */
const remoteWriteSampleValue = [1, 2, 1];
/** ExportMetricsServiceRequest → ResourceMetrics (1) → ScopeMetrics (2) → Metric (2) → Gauge (5) → NumberDataPoint (1) → as_double (4). */
const otlpGaugePointValue = [1, 2, 2, 5, 1, 4];
/** More than any payload the bench receives decompresses to. */
const maxDecompressedBytes = 64 * 1024 * 1024;

/** The `value` field of each line `<measurement>[,<tags>] <fields> [<time>]`; undefined when a line has none. */
export function lineProtocolValues(text: string): number[] | undefined {
  const values: number[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const fieldsStart = line.indexOf(" ") + 1;
    const fieldsEnd = line.indexOf(" ", fieldsStart);
    if (fieldsStart === 0) return undefined;
    const fields = line.slice(fieldsStart, fieldsEnd === -1 ? line.length : fieldsEnd).split(",");
    const value = fields.find((field) => field.startsWith("value="))?.slice("value=".length);
    if (value === undefined) return undefined;
    const number = Number(/[iu]$/.test(value) ? value.slice(0, -1) : value);
    if (!Number.isFinite(number)) return undefined;
    values.push(number);
  }
  return values;
}

const readers: Record<BackendBenchFormat, (body: Buffer) => number[] | undefined> = {
  PROMETHEUS: (body) => nestedDoubles(decodeSnappyBlock(body, maxDecompressedBytes), remoteWriteSampleValue),
  INFLUXDB: (body) => lineProtocolValues(body.toString("utf8")),
  OTLP: (body) => nestedDoubles(body, otlpGaugePointValue),
  "TOWER/JSON": (body) => scanTowerJson(body.toString("utf8"))?.map(({ value }) => value),
};

/**
 * The values of the data of one payload in `format`, in the order they came; undefined when it is
 * not such a payload (the bench's data need nothing the readers here leave out: escapes, JSON
 * TOWER/JSON does not compact).
 */
export function deliveredValues(format: BackendBenchFormat, body: Buffer): number[] | undefined {
  try {
    return readers[format](body);
  } catch {
    return undefined;
  }
}
