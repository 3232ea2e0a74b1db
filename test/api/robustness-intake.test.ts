import fc from "fast-check";
import { describe, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { checkFuzzedWrites, fuzzBodies, fuzzTimeoutMs, type Json, runMarker, sendFuzzBody } from "./support/fuzz";
import { request } from "./support/http";

/** Valid monitoring data; each run names metrics of its own, so a datum that slipped through shows. */
const validData: Json[] = [
  rdfJsonBody([{ id: "d1", metric: `cpu${runMarker}`, timestamp: 1409223851698, value: "0.5e0", resourceId: "vm1" }]),
  rdfJsonBody([
    { id: "d2", metric: `memory${runMarker}`, timestamp: 1409223852000, value: "-INF", resourceId: "vm,2" },
    { id: "d3", metric: `disk${runMarker}`, timestamp: 0, value: 3, resourceId: "frontend 1" },
  ]),
  {
    d4: {
      "http://www.modaclouds.eu/model#metric": [{ type: "literal", value: `latency${runMarker}` }],
      "http://www.modaclouds.eu/model#timestamp": [
        { type: "literal", value: "1", datatype: "http://www.w3.org/2001/XMLSchema#integer" },
      ],
      "http://www.modaclouds.eu/model#value": [
        { type: "literal", value: "NaN", datatype: "http://www.w3.org/2001/XMLSchema#double" },
      ],
      "http://www.modaclouds.eu/model#resourceId": [
        { type: "literal", value: "r", datatype: "http://www.w3.org/2001/XMLSchema#string" },
      ],
      "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": [{ type: "uri", value: "http://example.org/Datum" }],
    },
  },
];

async function metricNames(): Promise<unknown> {
  return (await request("GET", "/metrics")).json();
}

describe("monitoring data intake under random and mutated bodies", () => {
  it(
    "answers a success or a problem at /monitoringdata and /results, and registers no metric of a rejected body",
    async () => {
      const paths = fc.constantFrom("/monitoringdata", "/v1/results");
      await checkFuzzedWrites({
        bodies: fc.tuple(fuzzBodies(validData), paths).map(([body, path]) => ({ ...body, path })),
        send: (body) => sendFuzzBody("POST", body.path, body),
        readState: metricNames,
      });
    },
    fuzzTimeoutMs,
  );
});
