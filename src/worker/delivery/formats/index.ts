import { getOrCreate } from "../../common/get-or-create";
import { isStreamFormat, type ObserverFormat, type StreamFormat } from "../../metrics/observer-kinds";
import type { LabelChanges, MetricRun } from "../../vocabulary/delivery";
import { graphiteSerializer } from "./graphite";
import { influxDbSerializer } from "./influxdb";
import { otlpJsonPayloads, otlpPayloads } from "./otlp/otlp-payloads";
import { prometheusPayloads } from "./prometheus/prometheus-payloads";
import { rdfJsonSerializer } from "./rdf-json";
import type { PayloadBody, Serializer, StreamSerializer } from "./serializer";
import { towerJsonSerializer } from "./tower-json";

/**
 * Caches a serialization for as long as its runs array lives. Only observers without label changes
 * share runs arrays (a metric's own); the payload of one with changes is its own.
 */
function perRunsArray<Body extends PayloadBody>(
  serialize: (runs: readonly MetricRun[], changes?: LabelChanges) => Body[],
): (runs: readonly MetricRun[], changes?: LabelChanges) => Body[] {
  const cache = new WeakMap<readonly MetricRun[], Body[]>();
  return (runs, changes) =>
    changes === undefined ? getOrCreate(cache, runs, () => serialize(runs)) : serialize(runs, changes);
}

/**
 * The observers of a metric are handed the same runs array for each payload of a batch, so each
 * format serializes a batch's data once, however many observers take that format.
 */
function serializingOncePerRuns(serializer: StreamSerializer): StreamSerializer {
  return { ...serializer, payloads: perRunsArray(serializer.payloads), records: perRunsArray(serializer.records) };
}

const streamSerializers: Record<StreamFormat, StreamSerializer> = {
  "RDF/JSON": serializingOncePerRuns(rdfJsonSerializer),
  "TOWER/JSON": serializingOncePerRuns(towerJsonSerializer),
  GRAPHITE: serializingOncePerRuns(graphiteSerializer),
  INFLUXDB: serializingOncePerRuns(influxDbSerializer),
};

/** The formats of metric backends (docs/API.md, "Outputs for metric backends"). */
const backendSerializers: Record<Exclude<ObserverFormat, StreamFormat>, Serializer> = {
  PROMETHEUS: {
    format: "PROMETHEUS",
    contentType: "application/x-protobuf",
    headers: { "content-encoding": "snappy", "x-prometheus-remote-write-version": "0.1.0" },
    answers: "backend",
    payloads: perRunsArray(prometheusPayloads),
  },
  OTLP: {
    format: "OTLP",
    contentType: "application/x-protobuf",
    headers: {},
    answers: "backend",
    payloads: perRunsArray(otlpPayloads),
  },
  "OTLP/JSON": {
    format: "OTLP/JSON",
    contentType: "application/json",
    headers: {},
    answers: "backend",
    payloads: perRunsArray(otlpJsonPayloads),
  },
};

export function serializerFor(format: ObserverFormat): Serializer {
  return isStreamFormat(format) ? streamSerializers[format] : backendSerializers[format];
}

/** The serializer of a format TCP and UDP observers take (registration refuses the others). */
export function streamSerializerFor(format: StreamFormat): StreamSerializer {
  return streamSerializers[format];
}
