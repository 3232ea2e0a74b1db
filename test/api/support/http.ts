import { expect } from "vitest";
import type { FieldProblem } from "../../../src/shared/problems";
import { workerFetch } from "./checked-fetch";

/** Every route is served under /v1 and at the root. */
export const prefixes = ["/v1", ""] as const;

/** A request to the Worker; its answer is checked against the OpenAPI document. */
export function request(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return workerFetch(`http://service${path}`, { method, ...init });
}

export function sendJson(method: string, path: string, body: unknown): Promise<Response> {
  return request(method, path, { body: JSON.stringify(body), headers: { "content-type": "application/json" } });
}

export function validationProblem(detail: string, errors: FieldProblem[]) {
  return { type: "urn:tower-edge:problem:validation-failed", title: "Request not valid", status: 400, detail, errors };
}

/** `response` is a fetch Response or one of the typed client's. */
export async function expectProblem(
  response: Pick<Response, "status" | "headers"> & { json(): Promise<unknown> },
  status: number,
  body: unknown,
): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toEqual(body);
}
