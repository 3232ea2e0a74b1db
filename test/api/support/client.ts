import type { ApiRoutes } from "../../../src/worker/app";
import { apiClient } from "../../../tools/testing/api-client";
import { workerFetch } from "./checked-fetch";

/** The typed client of the API; its answers are checked against the document, as `request`'s are. */
export const api = apiClient<ApiRoutes>("http://service", workerFetch);

const v1 = apiClient<ApiRoutes>("http://service/v1", workerFetch);

/** The client of the routes under `prefix`, one of `prefixes` (http.ts). */
export function clientAt(prefix: string): typeof api {
  return prefix === "/v1" ? v1 : api;
}

/** The path parameter of a metric or resource named `id`: the client puts it in the URL as given. */
export function idParam(id: string) {
  return { id: encodeURIComponent(id) };
}
