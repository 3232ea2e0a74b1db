import type { ObserverFormat } from "../schemas/observer-kinds";
import { graphiteSerializer } from "./graphite";
import { influxDbSerializer } from "./influxdb";
import { rdfJsonSerializer } from "./rdf-json";
import type { Serializer } from "./serializer";
import { towerJsonSerializer } from "./tower-json";

const serializers: Record<ObserverFormat, Serializer> = {
  "RDF/JSON": rdfJsonSerializer,
  "TOWER/JSON": towerJsonSerializer,
  GRAPHITE: graphiteSerializer,
  INFLUXDB: influxDbSerializer,
};

export function serializerFor(format: ObserverFormat): Serializer {
  return serializers[format];
}
