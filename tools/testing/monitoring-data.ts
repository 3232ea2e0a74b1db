/** Builds RDF/JSON monitoring data bodies as a client of the service sends them. */
export const monitoringNamespace = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";
const xsd = "http://www.w3.org/2001/XMLSchema#";

export interface DatumInput {
  id: string;
  metric: string;
  timestamp: number;
  /** The xsd:double lexical form, or a number. */
  value: number | string;
  resourceId: string;
}

export function rdfJsonSubject(datum: Omit<DatumInput, "id">) {
  return {
    [`${monitoringNamespace}metric`]: [{ type: "literal", value: datum.metric }],
    [`${monitoringNamespace}timestamp`]: [
      { type: "literal", value: String(datum.timestamp), datatype: `${xsd}integer` },
    ],
    [`${monitoringNamespace}value`]: [{ type: "literal", value: String(datum.value), datatype: `${xsd}double` }],
    [`${monitoringNamespace}resourceId`]: [{ type: "literal", value: datum.resourceId, datatype: `${xsd}string` }],
  };
}

export function rdfJsonBody(data: readonly DatumInput[]): Record<string, ReturnType<typeof rdfJsonSubject>> {
  return Object.fromEntries(data.map(({ id, ...datum }) => [id, rdfJsonSubject(datum)]));
}

const predicate = (property: string) => JSON.stringify(`${monitoringNamespace}${property}`);
const metricKey = predicate("metric");
const timestampKey = predicate("timestamp");
const valueKey = predicate("value");
const resourceIdKey = predicate("resourceId");

/**
 * `JSON.stringify(rdfJsonBody(data))`, written straight as text: for load generators, which would
 * otherwise spend more of their time building the objects than the service spends reading them.
 * The text between a datum's timestamp and its metric's is the same for data of one metric, so it
 * is written once per run of them, and a number's lexical form needs no escaping.
 */
export function rdfJsonBodyText(data: readonly DatumInput[]): string {
  let metricOfPrefix: string | undefined;
  let prefix = "";
  let text = "{";
  for (const [index, { id, metric, timestamp, value, resourceId }] of data.entries()) {
    if (metric !== metricOfPrefix) {
      metricOfPrefix = metric;
      prefix = `:{${metricKey}:[{"type":"literal","value":${JSON.stringify(metric)}}],${timestampKey}:[{"type":"literal","value":"`;
    }
    const lexical = typeof value === "number" ? `"${value}"` : JSON.stringify(value);
    text +=
      `${index === 0 ? "" : ","}${JSON.stringify(id)}${prefix}${timestamp}","datatype":"${xsd}integer"}],` +
      `${valueKey}:[{"type":"literal","value":${lexical},"datatype":"${xsd}double"}],` +
      `${resourceIdKey}:[{"type":"literal","value":${JSON.stringify(resourceId)},"datatype":"${xsd}string"}]}`;
  }
  return `${text}}`;
}
