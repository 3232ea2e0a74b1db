import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { FieldProblem } from "../../../src/shared/problems";

/** Every route is served under /v1 and at the root. */
export const prefixes = ["/v1", ""] as const;

export function request(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(`http://service${path}`, { method, ...init });
}

export function sendJson(method: string, path: string, body: unknown): Promise<Response> {
  return request(method, path, { body: JSON.stringify(body), headers: { "content-type": "application/json" } });
}

export function validationProblem(detail: string, errors: FieldProblem[]) {
  return { type: "urn:tower-edge:problem:validation-failed", title: "Request not valid", status: 400, detail, errors };
}

export async function expectProblem(response: Response, status: number, body: unknown): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toEqual(body);
}
