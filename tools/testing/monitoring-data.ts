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
