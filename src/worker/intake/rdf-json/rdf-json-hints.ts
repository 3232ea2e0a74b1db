import type { PropertyRules } from "../../vocabulary/rdf-literal-rules";
import { type DatumProperty, datumProperties, monitoringDataNamespace } from "../../vocabulary/rdf-vocabulary";

/*
 * What to tell a client whose body is not RDF/JSON monitoring data but close to it: the shapes
 * people send first are the four properties by their bare names, and TOWER/JSON, the simple form
 * observers receive. Each is answered with the shape expected, written out.
 */

/** A lexical form each property takes, for examples. */
const exampleValue: Record<DatumProperty, string> = {
  metric: "cpu",
  timestamp: "1409223851698",
  value: "0.5",
  resourceId: "vm1",
};

/** `"<IRI>":[{"type":"literal",…}]`: the property as a datum gives it. */
export function propertyExample(property: DatumProperty, rules: PropertyRules): string {
  const { datatype, plainAccepted } = rules[property];
  const literal = { type: "literal", value: exampleValue[property], ...(plainAccepted ? {} : { datatype }) };
  return `"${monitoringDataNamespace}${property}":[${JSON.stringify(literal)}]`;
}

/** The start of a body of one datum, for the messages about the body as a whole. */
function bodyExample(): string {
  return `{"d1":{"${monitoringDataNamespace}metric":[{"type":"literal","value":"cpu"}],…}}`;
}

const expectedBody = () =>
  `RDF/JSON: an object keyed by datum id, e.g. ${bodyExample()}, each datum giving its metric, timestamp, ` +
  "value and resourceId by their full IRIs";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether `value` is shaped like a datum of TOWER/JSON: its properties by their bare names, with plain values. */
function isTowerDatum(value: unknown): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  const named = datumProperties.filter((property) => keys.includes(property));
  return named.length >= 2 && keys.every((key) => !isObject(value[key]));
}

/** Why a body that is not an object is not monitoring data; an array of TOWER/JSON data is named as such. */
export function notAnObjectMessage(body: unknown): string {
  if (Array.isArray(body) && body.length > 0 && body.every(isTowerDatum)) {
    return `The body is TOWER/JSON, the form observers receive; this route takes ${expectedBody()}.`;
  }
  return `Must be ${expectedBody()}.`;
}

/** Why an object that is one datum of TOWER/JSON is not monitoring data; undefined for any other object. */
export function towerDatumMessage(body: JsonObject): string | undefined {
  if (!isTowerDatum(body)) return undefined;
  return `The body is a datum in TOWER/JSON, the form observers receive; this route takes ${expectedBody()}.`;
}

export const noDataMessage = () => `The body holds no data; it must be ${expectedBody()}.`;

/** The key of `subject` that names `property` by another name than its IRI: bare, or in another vocabulary. */
function misnamedKey(subject: JsonObject, property: DatumProperty): string | undefined {
  const lower = property.toLowerCase();
  return Object.keys(subject).find((key) => {
    const local = key.slice(Math.max(key.lastIndexOf("#"), key.lastIndexOf("/")) + 1);
    return local.toLowerCase() === lower;
  });
}

/** Why `property` is missing from `subject`, and how to give it. */
export function missingPropertyMessage(subject: JsonObject, property: DatumProperty, rules: PropertyRules): string {
  const key = misnamedKey(subject, property);
  if (key !== undefined) {
    return (
      `Missing property ${property}: property names are full IRIs, and ${JSON.stringify(key)} is not one ` +
      `this service reads; write ${propertyExample(property, rules)}.`
    );
  }
  return `Missing property ${property}; give it as ${propertyExample(property, rules)}.`;
}
