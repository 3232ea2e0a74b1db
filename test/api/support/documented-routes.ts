import { request } from "./http";

/*
 * The API's operations as its OpenAPI document lists them, so that a test run over "every route"
 * covers a route from the day it is documented, without a list of its own to keep up.
 */

export interface DocumentedOperation {
  /** Upper case: GET, POST, … */
  method: string;
  /** As the document writes it, e.g. /metrics/{id}/observers/{oid}. */
  template: string;
  /** The prefixes it is served under: "/v1" and "" for the API's routes, "" alone for the others. */
  prefixes: string[];
  /** The names of its path parameters, in the order of the template. */
  pathParameters: string[];
  takesBody: boolean;
}

interface OpenApiOperation {
  requestBody?: unknown;
}

type PathItem = Record<string, OpenApiOperation> & { servers?: { url: string }[] };

const methods = ["get", "put", "post", "patch", "delete"];

/** The server URL `/` is the empty prefix. */
const prefixOf = (url: string) => (url === "/" ? "" : url);

export async function documentedOperations(): Promise<DocumentedOperation[]> {
  const document = (await (await request("GET", "/openapi.json")).json()) as {
    servers: { url: string }[];
    paths: Record<string, PathItem>;
  };
  return Object.entries(document.paths).flatMap(([template, item]) =>
    methods
      .filter((method) => item[method] !== undefined)
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        prefixes: (item.servers ?? document.servers).map((server) => prefixOf(server.url)),
        pathParameters: [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
        takesBody: item[method]!.requestBody !== undefined,
      })),
  );
}

/** The operation's path under `prefix`, each parameter as `segment` gives it (already percent-encoded). */
export function operationPath(
  operation: DocumentedOperation,
  prefix: string,
  segment: (parameter: string) => string,
): string {
  return prefix + operation.template.replace(/\{([^}]+)\}/g, (_, parameter: string) => segment(parameter));
}
