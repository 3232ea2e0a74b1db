import { getOrCreate } from "../../../shared/get-or-create";
import type { DatumRow } from "../../intake/datum";
import type { ObserverFormat } from "../../metrics/observer-kinds";
import { graphiteSerializer } from "./graphite";
import { influxDbSerializer } from "./influxdb";
import { rdfJsonSerializer } from "./rdf-json";
import type { Serializer } from "./serializer";
import { towerJsonSerializer } from "./tower-json";

type Serialize = (metric: string, rows: readonly DatumRow[]) => string[];

/** Caches a serialization for as long as its rows array lives; a rows array holds data of one metric only. */
function perRowsArray(serialize: Serialize): Serialize {
  const cache = new WeakMap<readonly DatumRow[], string[]>();
  return (metric, rows) => getOrCreate(cache, rows, () => serialize(metric, rows));
}

/**
 * The observers of a metric are handed the same rows array for each payload of a batch, so each
 * format serializes a batch's data once, however many observers take that format.
 */
function serializingOncePerRows(serializer: Serializer): Serializer {
  return {
    format: serializer.format,
    contentType: serializer.contentType,
    packing: serializer.packing,
    payloads: perRowsArray(serializer.payloads),
    records: perRowsArray(serializer.records),
  };
}

const serializers: Record<ObserverFormat, Serializer> = {
  "RDF/JSON": serializingOncePerRows(rdfJsonSerializer),
  "TOWER/JSON": serializingOncePerRows(towerJsonSerializer),
  GRAPHITE: serializingOncePerRows(graphiteSerializer),
  INFLUXDB: serializingOncePerRows(influxDbSerializer),
};

export function serializerFor(format: ObserverFormat): Serializer {
  return serializers[format];
}
