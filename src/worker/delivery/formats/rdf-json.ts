import type { DatumRow } from "../../vocabulary/datum";
import type { MetricRun } from "../../vocabulary/delivery";
import { monitoringDataNamespace, xsdDouble, xsdInteger, xsdString } from "../../vocabulary/rdf-vocabulary";
import { formatDouble } from "./number-format";
import type { StreamSerializer } from "./serializer";

/** xsd:double's own spellings of the special values. */
const xsdNonFinite = { nan: "NaN", infinity: "INF", negativeInfinity: "-INF" };

const metricPredicate = `${monitoringDataNamespace}metric`;
const timestampPredicate = `${monitoringDataNamespace}timestamp`;
const valuePredicate = `${monitoringDataNamespace}value`;
const resourceIdPredicate = `${monitoringDataNamespace}resourceId`;

/** `"<id>":{…}`, one subject of an RDF/JSON object, with the datatypes the intake requires. */
function subjectMember(metric: string, row: DatumRow): string {
  const [id, timestamp, value, resourceId] = row;
  const properties = {
    [metricPredicate]: [{ type: "literal", value: metric }],
    [timestampPredicate]: [{ type: "literal", value: String(timestamp), datatype: xsdInteger }],
    [valuePredicate]: [{ type: "literal", value: formatDouble(value, xsdNonFinite), datatype: xsdDouble }],
    [resourceIdPredicate]: [{ type: "literal", value: resourceId, datatype: xsdString }],
  };
  // Written member by member: an object keyed by id would reorder ids that look like array
  // indices, and an id of `__proto__` would not become a key at all.
  return `${JSON.stringify(id)}:${JSON.stringify(properties)}`;
}

/**
 * One subject per datum. Data sharing an id (a sender may reuse one across requests) cannot be
 * subjects of one document, so the n-th datum with an id goes into the n-th document.
 */
function payloads(runs: readonly MetricRun[]): string[] {
  const documents: string[][] = [];
  const seen = new Map<string, number>();
  for (const [metric, rows] of runs) {
    for (const row of rows) {
      const occurrence = seen.get(row[0]) ?? 0;
      seen.set(row[0], occurrence + 1);
      documents[occurrence] ??= [];
      documents[occurrence].push(subjectMember(metric, row));
    }
  }
  return documents.map((members) => `{${members.join(",")}}`);
}

export const rdfJsonSerializer: StreamSerializer = {
  format: "RDF/JSON",
  contentType: "application/rdf+json",
  headers: {},
  answers: "webhook",
  packing: "one-per-datagram",
  payloads,
  records: (runs) => runs.flatMap(([metric, rows]) => rows.map((row) => `{${subjectMember(metric, row)}}`)),
};
