import { expect } from "vitest";
import type { FieldProblem } from "../../../src/shared/problems";
import { clientAt } from "./client";
import { expectProblem, sendJson, validationProblem } from "./http";

export async function readModel(prefix = "") {
  const response = await clientAt(prefix).resources.$get();
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

/** Uploads a model that must be accepted (204, empty body). */
export async function upload(method: "PUT" | "POST", body: unknown, prefix = ""): Promise<void> {
  const resources = clientAt(prefix).resources;
  const response = await (method === "PUT" ? resources.$put({ json: body }) : resources.$post({ json: body }));
  expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
}

/** Detail of a 400 for a body that does not match the schema. */
export const schemaDetail = "The request has problems; see errors.";
/** Detail of a 400 for a well-formed body that would make the model inconsistent. */
export const modelDetail = "The model is not valid; nothing was stored.";

/** Sends an upload that must be rejected with 400 `errors`, and checks that the model did not change. */
export async function expectRejected(
  method: "PUT" | "POST",
  body: unknown,
  detail: string,
  errors: FieldProblem[],
): Promise<void> {
  const before = await readModel();
  await expectProblem(await sendJson(method, "/resources", body), 400, validationProblem(detail, errors));
  expect(await readModel()).toEqual(before);
}
