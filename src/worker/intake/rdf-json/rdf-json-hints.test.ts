import { describe, expect, it } from "vitest";
import { rulesFor } from "../../vocabulary/rdf-literal-rules";
import { missingPropertyMessage, notAnObjectMessage, propertyExample, towerDatumMessage } from "./rdf-json-hints";

const rules = rulesFor(256);
const md = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";
const towerDatum = { resourceId: "vm1", metric: "cpu", value: 0.5, timestamp: 1 };

describe("the hints of the RDF/JSON intake", () => {
  it("writes a property as a datum gives it: plain for the metric, typed for the others", () => {
    expect(propertyExample("metric", rules)).toBe(`"${md}metric":[{"type":"literal","value":"cpu"}]`);
    expect(propertyExample("timestamp", rules)).toBe(
      `"${md}timestamp":[{"type":"literal","value":"1409223851698","datatype":"http://www.w3.org/2001/XMLSchema#integer"}]`,
    );
  });

  it("names TOWER/JSON, as an array or as one datum, and nothing else", () => {
    expect(notAnObjectMessage([towerDatum])).toMatch(/^The body is TOWER\/JSON, the form observers receive;/);
    expect(notAnObjectMessage([1, 2])).toMatch(/^Must be RDF\/JSON: an object keyed by datum id/);
    expect(notAnObjectMessage([])).toMatch(/^Must be RDF\/JSON/);
    expect(towerDatumMessage(towerDatum)).toMatch(/^The body is a datum in TOWER\/JSON/);
    expect(towerDatumMessage({ metric: "cpu" })).toBeUndefined();
    // Datum ids that happen to be property names, each holding a datum: RDF/JSON, not TOWER/JSON.
    expect(towerDatumMessage({ metric: {}, value: {} })).toBeUndefined();
  });

  it("tells a property named by its bare name, in any case, from one not given at all", () => {
    expect(missingPropertyMessage({ ResourceID: [] }, "resourceId", rules)).toMatch(
      /^Missing property resourceId: property names are full IRIs, and "ResourceID" is not one/,
    );
    expect(missingPropertyMessage({}, "value", rules)).toMatch(/^Missing property value; give it as "http/);
  });
});
