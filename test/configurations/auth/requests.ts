import { workerFetch } from "../../api/support/checked-fetch";

/** The tokens the worker-auth project configures (vitest.config.ts). */
export const tokens = { admin: "admin-1", secondAdmin: "admin-2", ingest: "ingest-1" } as const;

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A raw Authorization header, for malformed ones. */
  authorization?: string;
  /** Sent as JSON. */
  body?: unknown;
}

/** A request to the Worker; its answer is checked against the OpenAPI document. */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers();
  const authorization = options.authorization ?? (options.token === undefined ? undefined : `Bearer ${options.token}`);
  if (authorization !== undefined) headers.set("authorization", authorization);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return workerFetch(`http://service${path}`, { method, headers, body });
}
