import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonBody, optionalJsonBody } from "../../shared/http/json-body";
import { ApiError } from "../../shared/problems";
import { emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { queryParams } from "../http/path-params";
import { settingDefaults } from "../http/setting-defaults";
import { observerAddressProblem } from "./address-policy";
import { resolveSecret } from "./generated-secret";
import { attemptsKept } from "./kept-entries";
import { metricStub } from "./metric-object";
import { invalidMetricNameAnswer, metricNameParam, unknownMetric, unknownMetricAnswer } from "./metric-path";
import { changedReport, retryStartedReport } from "./observer-outcomes";
import {
  attemptsQuerySchema,
  observerChangeSchema,
  observerRegistrationSchema,
  replayRangeSchema,
} from "./observer-schema";
import {
  attemptRecordSchema,
  observerReportSchema,
  observerReportWithSecretSchema,
  observerWithSecretSchema,
  publicObserverSchema,
  replayAnswerSchema,
} from "./observer-view-schema";

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
          "An observer of the same format, protocol and address exists: it is answered; a secret or headers in " +
            "this request replace its own (the old secret keeps signing beside the new one for a while).",
          observerWithSecretSchema,
        ),
        201: jsonAnswer("Registered.", observerWithSecretSchema),
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
      const secret = resolveSecret(registration.secret);
      const result = await metricStub(c.env, id).registerObserver(registration, maxObservers, secret);
      // A generated secret is shown once, in the answer to the request that asked for it.
      const shown = registration.secret === "generate" ? { secret } : {};
      switch (result.outcome) {
        case "unknown-metric":
          throw await unknownMetric(c.env, id);
        case "limit-reached":
          throw new ApiError(
            "conflict",
            `The metric ${JSON.stringify(id)} already has the maximum of ${maxObservers} observers; remove one first.`,
          );
        case "created":
          return c.json({ ...result.observer, ...shown }, 201);
        case "existing":
          return c.json({ ...result.observer, ...shown }, 200);
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
      if (!observers) throw await unknownMetric(c.env, id);
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
  .patch(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "Pause, resume, re-key or change the headers of an observer",
      description:
        "paused: deliveries are held in the backlog (within MAX_BACKLOG_DATA) and delivered in order on resume. " +
        "active also resumes an observer disabled after DISABLE_AFTER_HOURS of failures. A new secret signs " +
        "deliveries beside the old one for SECRET_ROTATION_HOURS (two signatures in webhook-signature).",
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The observer with its status after the change.", observerReportWithSecretSchema),
        400: problemAnswer("The metric name in the path, or the body, is not valid; headers on a TCP or UDP observer."),
        404: unknownObserverAnswer,
      },
    }),
    metricNameParam,
    jsonBody(observerChangeSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      const change = c.req.valid("json");
      const secret = resolveSecret(change.secret);
      const result = await metricStub(c.env, id).changeObserver(observerId, { ...change, secret });
      const report = changedReport(result, () => unknownObserver(id, observerId));
      return c.json({ ...report, ...(change.secret === "generate" ? { secret } : {}) });
    },
  )
  .get(
    "/:oid/attempts",
    describeRoute({
      tags: ["Observers"],
      summary: "An observer's latest delivery attempts",
      description: `Newest first. The service keeps the last ${attemptsKept} attempts per observer.`,
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The attempts.", z.array(attemptRecordSchema)),
        400: problemAnswer("The metric name in the path or the limit is not valid."),
        404: unknownObserverAnswer,
      },
    }),
    metricNameParam,
    queryParams(attemptsQuerySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      const attempts = await metricStub(c.env, id).observerAttempts(observerId, c.req.valid("query").limit);
      if (!attempts) throw unknownObserver(id, observerId);
      return c.json(attempts);
    },
  )
  .post(
    "/:oid/replay",
    describeRoute({
      tags: ["Observers"],
      summary: "Deliver dead data again",
      description:
        "Dead data (tried for the whole retry schedule) accepted within the range go back into the backlog, " +
        "with their original webhook-id, and are tried again. No body: all dead data.",
      parameters: [observerIdParameter],
      responses: {
        202: jsonAnswer("How many data went back into the backlog.", replayAnswerSchema),
        400: problemAnswer("The metric name in the path, or the range, is not valid."),
        404: unknownObserverAnswer,
      },
    }),
    metricNameParam,
    optionalJsonBody(replayRangeSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      const { since, until } = c.req.valid("json");
      const data = await metricStub(c.env, id).replay(observerId, since ?? 0, until ?? Number.MAX_SAFE_INTEGER);
      if (data === null) throw unknownObserver(id, observerId);
      return c.json({ data }, 202);
    },
  )
  .post(
    "/:oid/retry",
    describeRoute({
      tags: ["Observers"],
      summary: "Retry now",
      description:
        "The observer's waiting data (its backlog, dead data aside) are due at once: an attempt starts now " +
        "instead of at the next step of the retry schedule. The schedule's step stays: a failure waits as the " +
        "previous one would have. No body.",
      parameters: [observerIdParameter],
      responses: {
        202: jsonAnswer(
          "The attempt is starting; the observer with its status (nextAttemptAt: now, when data wait).",
          observerReportSchema,
        ),
        400: invalidMetricNameAnswer,
        404: unknownObserverAnswer,
        409: problemAnswer("The observer is paused or disabled: resuming it (PATCH) tries its backlog (conflict)."),
      },
    }),
    metricNameParam,
    async (c) => {
      const { id } = c.req.valid("param");
      const observerId = c.req.param("oid");
      const result = await metricStub(c.env, id).retryNow(observerId);
      return c.json(
        retryStartedReport(result, observerId, () => unknownObserver(id, observerId)),
        202,
      );
    },
  )
  .delete(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "Remove an observer",
      description: "It receives nothing more; its backlog and attempt log go with it.",
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
