import { type LoadResult, runLoad } from "../closed-loop.ts";
import { rdfJsonBodies } from "./rdf-json-bodies.ts";

/** Intake requests of one kind: where they go, the bodies they cycle through, how those are sent, what answers success. */
export interface IntakeRequests {
  /** POST unless said; a GET sends no body (bodies empty, no data). */
  method?: "GET" | "POST";
  /** The path, with its query, e.g. `/write?db=telegraf`. */
  path: string;
  bodies: readonly (string | Uint8Array)[];
  contentType: string;
  /** Further headers, e.g. Content-Encoding. */
  headers?: Record<string, string>;
  expectedStatus: number;
  /** Data each body holds. */
  dataPerRequest: number;
}

/** RDF/JSON requests to POST /monitoringdata: `count` distinct bodies of `size` data of `metric`. */
export function rdfJsonRequests(count: number, size: number, metric: string): IntakeRequests {
  return {
    path: "/monitoringdata",
    bodies: rdfJsonBodies(count, size, metric),
    contentType: "application/json",
    expectedStatus: 204,
    dataPerRequest: size,
  };
}

/** How hard and how long requests are posted. */
export interface Posting {
  concurrency: number;
  seconds: number;
  /** Stop after this many requests, if the time is not up before. */
  requests?: number;
}

/** Sends `requests` to the service at `baseUrl` in a closed loop (see runLoad). */
export function sendRequests(baseUrl: string, requests: IntakeRequests, posting: Posting): Promise<LoadResult> {
  const { method = "POST", path, bodies: requestBodies, contentType, headers, expectedStatus } = requests;
  return runLoad({
    url: `${baseUrl}${path}`,
    method,
    bodies: requestBodies,
    contentType,
    headers,
    expectedStatus,
    ...posting,
  });
}
