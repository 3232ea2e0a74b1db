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
 */
export function rdfJsonBodyText(data: readonly DatumInput[]): string {
  const subjects = data.map(
    ({ id, metric, timestamp, value, resourceId }) =>
      `${JSON.stringify(id)}:{${metricKey}:[{"type":"literal","value":${JSON.stringify(metric)}}],` +
      `${timestampKey}:[{"type":"literal","value":"${timestamp}","datatype":"${xsd}integer"}],` +
      `${valueKey}:[{"type":"literal","value":${JSON.stringify(String(value))},"datatype":"${xsd}double"}],` +
      `${resourceIdKey}:[{"type":"literal","value":${JSON.stringify(resourceId)},"datatype":"${xsd}string"}]}`,
  );
  return `{${subjects.join(",")}}`;
}
