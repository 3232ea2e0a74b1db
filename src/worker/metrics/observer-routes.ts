import { Hono } from "hono";
import type { AppEnv } from "../app";
import { metricStub } from "./metric-object";
import { ApiError } from "../../shared/problems";
import { resolveSecret } from "./generated-secret";
import { attemptsQuerySchema, observerChangeSchema, observerRegistrationSchema, replayRangeSchema } from "./observer-schema";
import { observerAddressProblem } from "./address-policy";
import { jsonBody, optionalJsonBody } from "../../shared/http/json-body";
import { queryParams } from "../http/path-params";
import { metricNameParam, unknownMetric } from "./metric-path";

function unknownObserver(metric: string, observerId: string): ApiError {
  return ApiError.notFound(`The metric ${JSON.stringify(metric)} has no observer ${JSON.stringify(observerId)}.`);
}

/** /metrics/:id/observers: registering, listing, reading and removing the observers of a metric. */
export const observerRoutes = new Hono<AppEnv>()
  .post("/", metricNameParam, jsonBody(observerRegistrationSchema), async (c) => {
    const { id } = c.req.valid("param");
    const registration = c.req.valid("json");
    const addressProblem = observerAddressProblem(registration, c.get("config").ALLOW_PRIVATE_OBSERVERS);
    if (addressProblem) throw ApiError.validation([addressProblem], "The observer's address may not be used.");
    const maxObservers = c.get("config").MAX_OBSERVERS_PER_METRIC;
    const secret = resolveSecret(registration.secret);
    const result = await metricStub(c.env, id).registerObserver(registration, maxObservers, secret);
    // A generated secret is shown once, in the answer that created it.
    const shown = registration.secret === "generate" ? { secret } : {};
    switch (result.outcome) {
      case "unknown-metric":
        throw unknownMetric(id);
      case "limit-reached":
        throw new ApiError("conflict", `The metric ${JSON.stringify(id)} already has the maximum of ${maxObservers} observers; remove one first.`);
      case "created":
        return c.json({ ...result.observer, ...shown }, 201);
      case "existing":
        return c.json({ ...result.observer, ...shown }, 200);
    }
  })
  .get("/", metricNameParam, async (c) => {
    const { id } = c.req.valid("param");
    const observers = await metricStub(c.env, id).listObservers();
    if (!observers) throw unknownMetric(id);
    return c.json(observers);
  })
  .get("/:oid", metricNameParam, async (c) => {
    const { id } = c.req.valid("param");
    const observerId = c.req.param("oid");
    const report = await metricStub(c.env, id).observerReport(observerId);
    if (!report) throw unknownObserver(id, observerId);
    return c.json(report);
  })
  .patch("/:oid", metricNameParam, jsonBody(observerChangeSchema), async (c) => {
    const { id } = c.req.valid("param");
    const observerId = c.req.param("oid");
    const change = c.req.valid("json");
    const secret = resolveSecret(change.secret);
    const report = await metricStub(c.env, id).changeObserver(observerId, { ...change, secret });
    if (!report) throw unknownObserver(id, observerId);
    return c.json({ ...report, ...(change.secret === "generate" ? { secret } : {}) });
  })
  .get("/:oid/attempts", metricNameParam, queryParams(attemptsQuerySchema), async (c) => {
    const { id } = c.req.valid("param");
    const observerId = c.req.param("oid");
    const attempts = await metricStub(c.env, id).observerAttempts(observerId, c.req.valid("query").limit);
    if (!attempts) throw unknownObserver(id, observerId);
    return c.json(attempts);
  })
  .post("/:oid/replay", metricNameParam, optionalJsonBody(replayRangeSchema), async (c) => {
    const { id } = c.req.valid("param");
    const observerId = c.req.param("oid");
    const { since, until } = c.req.valid("json");
    const data = await metricStub(c.env, id).replay(observerId, since ?? 0, until ?? Number.MAX_SAFE_INTEGER);
    if (data === null) throw unknownObserver(id, observerId);
    return c.json({ data }, 202);
  })
  .delete("/:oid", metricNameParam, async (c) => {
    const { id } = c.req.valid("param");
    const observerId = c.req.param("oid");
    if (!(await metricStub(c.env, id).removeObserver(observerId))) throw unknownObserver(id, observerId);
    return c.body(null, 204);
  });
