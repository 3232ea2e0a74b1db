import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { jsonBody, optionalJsonBody } from "../../shared/http/json-body";
import { ApiError } from "../../shared/problems";
import { emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { queryParams } from "../http/path-params";
import { observerAddressProblem } from "../metrics/address-policy";
import { resolveSecret } from "../metrics/generated-secret";
import { attemptsKept } from "../metrics/kept-entries";
import { changedReport, retryStartedReport } from "../metrics/observer-outcomes";
import { attemptsQuerySchema, observerChangeSchema, replayRangeSchema } from "../metrics/observer-schema";
import { attemptRecordSchema, replayAnswerSchema } from "../metrics/observer-view-schema";
import { readSummary } from "../summary/summary-read";
import { listedObservers } from "../summary/summary-view";
import { selectorObserverStub } from "./selector-observer-object";
import { selectorObserverRegistrationSchema, targetOf } from "./selector-observer-schema";
import {
  observerListSchema,
  selectorObserverReportSchema,
  selectorObserverWithSecretSchema,
} from "./selector-observer-view-schema";
import { registerSelectorObserver, removeSelectorObserver } from "./selector-registration";

function unknownObserver(observerId: string): ApiError {
  return ApiError.notFound(
    `There is no selector observer ${JSON.stringify(observerId)}; a metric's own observers are at ` +
      "/metrics/{id}/observers/{oid}.",
  );
}

const observerIdParameter = {
  in: "path" as const,
  name: "oid",
  required: true,
  description: "The selector observer's id, as registration answered it.",
  schema: { type: "string" as const },
};

const unknownObserverAnswer = problemAnswer("There is no selector observer of that id (not-found).");

/** /observers: observers that follow selectors, and the list of every observer of the service. */
export const selectorObserverRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describeRoute({
      tags: ["Observers"],
      summary: "Register an observer that follows selectors",
      description:
        "It receives every datum that its PromQL series selectors (match) or its selection through the model " +
        "(resources) select, of every metric that exists or appears later, one payload per batch whatever the " +
        "metrics. Unless ALLOW_PRIVATE_OBSERVERS is true, the address must be a public destination.",
      responses: {
        200: jsonAnswer(
          "An observer of the same selectors, format, protocol and address exists: it is answered; a secret or " +
            "headers in this request replace its own.",
          selectorObserverWithSecretSchema,
        ),
        201: jsonAnswer("Registered.", selectorObserverWithSecretSchema),
        400: problemAnswer(
          "The body is not valid (a selector's problem names its position), or the address may not be used.",
        ),
      },
    }),
    jsonBody(selectorObserverRegistrationSchema),
    async (c) => {
      const registration = c.req.valid("json");
      const addressProblem = observerAddressProblem(targetOf(registration), c.get("config").ALLOW_PRIVATE_OBSERVERS);
      if (addressProblem) throw ApiError.validation([addressProblem], "The observer's address may not be used.");
      const secret = resolveSecret(registration.secret);
      const { outcome, observer } = await registerSelectorObserver(c.env, registration, secret);
      const shown = registration.secret === "generate" ? { secret } : {};
      return c.json({ ...observer, ...shown }, outcome === "created" ? 201 : 200);
    },
  )
  .get(
    "/",
    describeRoute({
      tags: ["Observers"],
      summary: "Every observer of the service",
      description:
        "The selector observers with what they follow and how many metrics they follow now, then each metric's " +
        "observers with their metric; each with its delivery status as of its latest consumer batch, delivery or change.",
      responses: { 200: jsonAnswer("Every observer.", observerListSchema) },
    }),
    // From the summary's shards, as the consumer and every change keep them: not from every metric's object.
    async (c) => c.json(listedObservers(await readSummary(c.env))),
  )
  .get(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "One selector observer with its delivery status",
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The observer, what it follows and how deliveries to it went.", selectorObserverReportSchema),
        404: unknownObserverAnswer,
      },
    }),
    async (c) => {
      const observerId = c.req.param("oid");
      const observer = await selectorObserverStub(c.env, observerId).describe();
      if (!observer) throw unknownObserver(observerId);
      return c.json(observer);
    },
  )
  .patch(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "Pause, resume, re-key or change the headers of a selector observer",
      description: "As for a metric's observer: paused data wait in the backlog and are delivered in order on resume.",
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The observer with its status after the change.", selectorObserverWithSecretSchema),
        400: problemAnswer("The body is not valid; headers on a TCP or UDP observer."),
        404: unknownObserverAnswer,
      },
    }),
    jsonBody(observerChangeSchema),
    async (c) => {
      const observerId = c.req.param("oid");
      const change = c.req.valid("json");
      const secret = resolveSecret(change.secret);
      const stub = selectorObserverStub(c.env, observerId);
      changedReport(await stub.change({ ...change, secret }), () => unknownObserver(observerId));
      return c.json({ ...(await stub.describe()), ...(change.secret === "generate" ? { secret } : {}) });
    },
  )
  .get(
    "/:oid/attempts",
    describeRoute({
      tags: ["Observers"],
      summary: "A selector observer's latest delivery attempts",
      description: `Newest first. The service keeps the last ${attemptsKept} attempts per observer.`,
      parameters: [observerIdParameter],
      responses: {
        200: jsonAnswer("The attempts.", z.array(attemptRecordSchema)),
        400: problemAnswer("The limit is not valid."),
        404: unknownObserverAnswer,
      },
    }),
    queryParams(attemptsQuerySchema),
    async (c) => {
      const observerId = c.req.param("oid");
      const attempts = await selectorObserverStub(c.env, observerId).latestAttempts(c.req.valid("query").limit);
      if (!attempts) throw unknownObserver(observerId);
      return c.json(attempts);
    },
  )
  .post(
    "/:oid/replay",
    describeRoute({
      tags: ["Observers"],
      summary: "Deliver a selector observer's dead data again",
      description:
        "Dead data accepted within the range go back into the backlog, with their original webhook-id. No body: all dead data.",
      parameters: [observerIdParameter],
      responses: {
        202: jsonAnswer("How many data went back into the backlog.", replayAnswerSchema),
        400: problemAnswer("The range is not valid."),
        404: unknownObserverAnswer,
      },
    }),
    optionalJsonBody(replayRangeSchema),
    async (c) => {
      const observerId = c.req.param("oid");
      const { since, until } = c.req.valid("json");
      const data = await selectorObserverStub(c.env, observerId).replay(since ?? 0, until ?? Number.MAX_SAFE_INTEGER);
      if (data === null) throw unknownObserver(observerId);
      return c.json({ data }, 202);
    },
  )
  .post(
    "/:oid/retry",
    describeRoute({
      tags: ["Observers"],
      summary: "Retry a selector observer's backlog now",
      description: "Its waiting data are due at once; the retry schedule's step stays. No body.",
      parameters: [observerIdParameter],
      responses: {
        202: jsonAnswer("The attempt is starting; the observer with its status.", selectorObserverReportSchema),
        404: unknownObserverAnswer,
        409: problemAnswer("The observer is paused or disabled: resuming it (PATCH) tries its backlog (conflict)."),
      },
    }),
    async (c) => {
      const observerId = c.req.param("oid");
      const stub = selectorObserverStub(c.env, observerId);
      retryStartedReport(await stub.retryNow(), observerId, () => unknownObserver(observerId));
      return c.json(await stub.describe(), 202);
    },
  )
  .delete(
    "/:oid",
    describeRoute({
      tags: ["Observers"],
      summary: "Remove a selector observer",
      description: "It receives nothing more; its backlog and attempt log go with it.",
      parameters: [observerIdParameter],
      responses: { 204: emptyAnswer("Removed."), 404: unknownObserverAnswer },
    }),
    async (c) => {
      const observerId = c.req.param("oid");
      if (!(await removeSelectorObserver(c.env, observerId))) throw unknownObserver(observerId);
      return c.body(null, 204);
    },
  );
