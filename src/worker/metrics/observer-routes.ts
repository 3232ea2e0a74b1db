import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonBody } from "../../shared/http/json-body";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../app";
import { emptyAnswer, jsonAnswer, problemAnswer } from "../contract/answers";
import { settingDefaults } from "../contract/setting-defaults";
import { observerAddressProblem } from "./address-policy";
import { metricStub } from "./metric-object";
import { invalidMetricNameAnswer, metricNameParam, unknownMetric, unknownMetricAnswer } from "./metric-path";
import { observerRegistrationSchema } from "./observer-schema";
import { observerReportSchema, publicObserverSchema } from "./observer-view-schema";

function unknownObserver(metric: string, observerId: string): ApiError {
  return ApiError.notFound(`The metric ${JSON.stringify(metric)} has no observer ${JSON.stringify(observerId)}.`);
}

/** `:oid` is not validated: an id the metric does not have is simply unknown. */
const observerIdParameter = {
  in: "path" as const,
  name: "oid",
  required: true,
  description: "The observer's id, as registration answered it.",
  schema: { type: "string" as const },
};

const unknownObserverAnswer = problemAnswer(
  "The metric has no observer of that id, or there is no such metric (not-found).",
);

/** /metrics/:id/observers: registering, listing, reading and removing the observers of a metric. */
export const observerRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describeRoute({
      tags: ["Observers"],
      summary: "Register an observer",
      description:
        "The body is validated before the metric is looked up. Unless ALLOW_PRIVATE_OBSERVERS is true, the " +
        "address must be a public destination.",
      responses: {
        200: jsonAnswer(
          "An observer of the same format, protocol and address exists: it is answered, and its secret replaced " +
            "by this request's (or removed).",
          publicObserverSchema,
        ),
        201: jsonAnswer("Registered.", publicObserverSchema),
        400: problemAnswer("The metric name in the path, or the body, is not valid, or the address may not be used."),
        404: unknownMetricAnswer,
        409: problemAnswer(
          `The metric already has MAX_OBSERVERS_PER_METRIC observers (${settingDefaults.MAX_OBSERVERS_PER_METRIC} ` +
            "unless configured) (conflict).",
        ),
      },
    }),
    metricNameParam,
    jsonBody(observerRegistrationSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const registration = c.req.valid("json");
      const addressProblem = observerAddressProblem(registration, c.get("config").ALLOW_PRIVATE_OBSERVERS);
      if (addressProblem) throw ApiError.validation([addressProblem], "The observer's address may not be used.");
      const maxObservers = c.get("config").MAX_OBSERVERS_PER_METRIC;
      const result = await metricStub(c.env, id).registerObserver(registration, maxObservers);
      switch (result.outcome) {
        case "unknown-metric":
          throw unknownMetric(id);
        case "limit-reached":
          throw new ApiError(
            "conflict",
            `The metric ${JSON.stringify(id)} already has the maximum of ${maxObservers} observers; remove one first.`,
          );
        case "created":
          return c.json(result.observer, 201);
        case "existing":
          return c.json(result.observer, 200);
      }
    },
  )
  .get(
    "/",
    describeRoute({
      tags: ["Observers"],
      summary: "A metric's observers",
      responses: {
        200: jsonAnswer("The observers in registration order.", z.array(publicObserverSchema)),
        400: invalidMetricNameAnswer,
        404: unknownMetricAnswer,
      },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      const observers = await metricStub(c.env, id).listObservers();
      if (!observers) throw unknownMetric(id);
      return c.json(observers);
    },
  )
  .get(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "One observer with its delivery status",
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The observer and how deliveries to it went.", observerReportSchema),
        400: invalidMetricNameAnswer,
        404: unknownObserverAnswer,
      },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      const report = await metricStub(c.env, id).observerReport(observerId);
      if (!report) throw unknownObserver(id, observerId);
      return c.json(report);
    },
  )
  .delete(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "Remove an observer",
      description: "It receives nothing more, including data whose delivery was being retried.",
      parameters: [observerIdParameter],
      responses: { 204: emptyAnswer("Removed."), 400: invalidMetricNameAnswer, 404: unknownObserverAnswer },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      if (!(await metricStub(c.env, id).removeObserver(observerId))) throw unknownObserver(id, observerId);
      return c.body(null, 204);
    },
  );
