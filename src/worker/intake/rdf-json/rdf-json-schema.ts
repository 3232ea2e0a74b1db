import { z } from "zod";
import { documentedMetricName } from "../../metrics/metric-schema";
import { maxIdentifierLength } from "../../vocabulary/rdf-literal-rules";
import {
  acceptedNamespaces,
  type DatumProperty,
  datumProperties,
  xsdDouble,
  xsdInteger,
  xsdString,
} from "../../vocabulary/rdf-vocabulary";

/*
 * The RDF/JSON shape of monitoring data as a zod schema, for the API's document: requests are
 * validated by rdf-json-reader.ts, which walks the structure by hand for speed. The test beside
 * this file holds the two to the same verdicts, so that the description cannot drift from the reader.
 */

const literal = z.literal("literal");

/** A resource id as the intake accepts it, and so as observers receive it. */
export const resourceIdLexical = z
  .string()
  .min(1)
  .max(maxIdentifierLength)
  .regex(/^\P{Cc}*$/u)
  .meta({ description: `1 to ${maxIdentifierLength} characters, no control characters.` });

/** The literal object of each property, with the datatype and lexical form the reader requires. */
const literalOf: Record<DatumProperty, z.ZodType> = {
  metric: z
    .strictObject({ type: literal, value: documentedMetricName, datatype: z.literal(xsdString).optional() })
    .meta({ id: "MetricLiteral", description: "A plain literal, or one typed xsd:string." }),
  timestamp: z
    .strictObject({
      type: literal,
      value: z
        .string()
        .regex(/^[+-]?\d+$/)
        .refine((lexical) => Number.isSafeInteger(Number(lexical)))
        .meta({ description: "Milliseconds since the epoch, within ±(2^53 − 1)." }),
      datatype: z.literal(xsdInteger),
    })
    .meta({ id: "TimestampLiteral" }),
  value: z
    .strictObject({
      type: literal,
      value: z
        .string()
        .regex(/^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)$/)
        .meta({ description: "An xsd:double lexical form: a decimal or scientific number, INF, +INF, -INF or NaN." }),
      datatype: z.literal(xsdDouble),
    })
    .meta({ id: "ValueLiteral" }),
  resourceId: z
    .strictObject({ type: literal, value: resourceIdLexical, datatype: z.literal(xsdString) })
    .meta({ id: "ResourceIdLiteral" }),
};

/** A subject's `property` in exactly one of `namespaces`: an array holding one literal. */
function propertyIn(property: DatumProperty, namespaces: readonly string[]) {
  const givenIn = (namespace: string) =>
    z.looseObject({
      [namespace + property]: z.array(literalOf[property]).length(1),
      ...Object.fromEntries(
        namespaces.filter((other) => other !== namespace).map((other) => [other + property, z.never().optional()]),
      ),
    });
  const options = namespaces.map(givenIn);
  return options.length === 1 ? options[0]! : z.union(options);
}

/** One datum: the four properties; other predicates (rdf:type, …) are allowed and ignored. */
function subjectIn(namespaces: readonly string[]) {
  const [metric, ...others] = datumProperties.map((property) => propertyIn(property, namespaces));
  return others.reduce<z.ZodType>((subject, property) => z.intersection(subject, property), metric!);
}

/** An RDF/JSON object of data keyed by datum id, each datum's properties in one of `namespaces`. */
export function rdfJsonDataSchema(namespaces: readonly string[]) {
  return z
    .record(z.string().min(1).max(maxIdentifierLength), subjectIn(namespaces))
    .refine((data) => Object.keys(data).length > 0)
    .meta({ minProperties: 1 });
}

/** The body of POST /monitoringdata, as documented. */
export const monitoringDataSchema = rdfJsonDataSchema(acceptedNamespaces).meta({
  id: "MonitoringData",
  description:
    `Data keyed by datum id (1 to ${maxIdentifierLength} characters). Each datum gives metric, timestamp, ` +
    `value and resourceId, each in one of the namespaces ${acceptedNamespaces.join(" and ")}, as an array ` +
    "of one literal. Other predicates are ignored.",
});
