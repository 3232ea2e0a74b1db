import type { InferRequestType } from "hono/client";
import { expect } from "vitest";
import { type api, clientAt, idParam } from "./client";

/** Declares a metric that must be new (201). */
export async function declareMetric(name: string, prefix = ""): Promise<void> {
  const response = await clientAt(prefix).metrics[":id"].$put({ param: idParam(name) });
  expect(response.status).toBe(201);
}

export function metricPath(metric: string, prefix = ""): string {
  return `${prefix}/metrics/${encodeURIComponent(metric)}`;
}

export function observersPath(metric: string, prefix = ""): string {
  return `${metricPath(metric, prefix)}/observers`;
}

type Registration = InferRequestType<(typeof api.metrics)[":id"]["observers"]["$post"]>["json"];

/** Registers an observer that must be new (201); returns the response body. */
export async function addObserver(metric: string, body: Registration, prefix = "") {
  const response = await clientAt(prefix).metrics[":id"].observers.$post({ param: idParam(metric), json: body });
  const created = await response.json();
  expect(response.status, JSON.stringify(created)).toBe(201);
  return created;
}

export async function listObservers(metric: string, prefix = "") {
  const response = await clientAt(prefix).metrics[":id"].observers.$get({ param: idParam(metric) });
  expect(response.status).toBe(200);
  return response.json();
}

/** How an HTTP observer registered without a secret or headers dresses its deliveries, as its report shows. */
export const plainHttp = { signed: false, headerNames: [] };

export const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

export { noDatagramsSentYet, noDeliveriesYet } from "../../support/delivery-status";

export function notFoundProblem(detail: string) {
  return { type: "urn:tower-edge:problem:not-found", title: "Resource not found", status: 404, detail };
}

export const unknownObserverProblem = (metric: string, id: string) =>
  notFoundProblem(`The metric ${JSON.stringify(metric)} has no observer ${JSON.stringify(id)}.`);
