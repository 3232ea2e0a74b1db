/** The RDF vocabulary of a monitoring datum shared by the intake and RDF/JSON delivery. */

/** The namespace of the datum properties, and the one the service writes. */
export const monitoringDataNamespace = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";

/** The namespace of the original's later data analyzer, accepted on intake. */
export const modelNamespace = "http://www.modaclouds.eu/model#";

export const acceptedNamespaces = [monitoringDataNamespace, modelNamespace] as const;

/** The local names of the four properties every datum carries. */
export const datumProperties = ["metric", "timestamp", "value", "resourceId"] as const;
export type DatumProperty = (typeof datumProperties)[number];

const xmlSchemaNamespace = "http://www.w3.org/2001/XMLSchema#";

export const xsdString = `${xmlSchemaNamespace}string`;
export const xsdInteger = `${xmlSchemaNamespace}integer`;
export const xsdDouble = `${xmlSchemaNamespace}double`;
