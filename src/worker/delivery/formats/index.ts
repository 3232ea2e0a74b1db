import { getOrCreate } from "../../../shared/get-or-create";
import type { Datum } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";
import { graphiteSerializer } from "./graphite";
import { influxDbSerializer } from "./influxdb";
import { rdfJsonSerializer } from "./rdf-json";
import type { Serializer } from "./serializer";
import { towerJsonSerializer } from "./tower-json";

/** Caches a function of a data array for as long as the array lives. */
function perDataArray(compute: (data: readonly Datum[]) => string[]) {
  const cache = new WeakMap<readonly Datum[], string[]>();
  return (data: readonly Datum[]) => {
    return getOrCreate(cache, data, compute);
  };
}

/**
 * The observers of a metric are handed the same data array, so each format serializes a batch's
 * data once, however many observers take that format.
 */
function serializingOncePerData(serializer: Serializer): Serializer {
  return {
    format: serializer.format,
    contentType: serializer.contentType,
    packing: serializer.packing,
    payloads: perDataArray((data) => serializer.payloads(data)),
    records: perDataArray((data) => serializer.records(data)),
  };
}

const serializers: Record<ObserverFormat, Serializer> = {
  "RDF/JSON": serializingOncePerData(rdfJsonSerializer),
  "TOWER/JSON": serializingOncePerData(towerJsonSerializer),
  GRAPHITE: serializingOncePerData(graphiteSerializer),
  INFLUXDB: serializingOncePerData(influxDbSerializer),
};

export function serializerFor(format: ObserverFormat): Serializer {
  return serializers[format];
}
