import { z } from "zod";
import type { AttemptRecord, DeliveryStatus } from "../vocabulary/delivery";
import { observerFormats, observerProtocols } from "./observer-kinds";
import { type ObserverReport, observerPortSchema, type PublicObserver } from "./observer-schema";

/*
 * Observers as the API answers them: canonical format and protocol, the address fields of the
 * protocol and never the secret. Each shape is one branch per kind of address, so that a client
 * reads which fields come with which protocol.
 */

const count = (description: string) => z.int().min(0).meta({ description });

export const deliveryStatusSchema = z
  .strictObject({
    acknowledgement: z.enum(["acknowledged", "sent-unacknowledged"]).meta({
      description:
        "What delivered proves. acknowledged: the observer took the data (HTTP: a 2xx answer; TCP: its connection " +
        "took the bytes). sent-unacknowledged: UDP, which nothing acknowledges: the datagrams were sent, and whether " +
        "anything listens at the port cannot be known.",
    }),
    delivered: count("Data handed over successfully (for UDP: sent)."),
    failed: count("Failed attempts."),
    dead: count("Data tried for the whole retry schedule, kept for replay for DEAD_RETENTION_HOURS."),
    dropped: count("Data dropped: dead past their retention, or the oldest over MAX_BACKLOG_DATA."),
    rejected: count("Data points an OTLP receiver took but rejected (its partialSuccess); not sent again."),
    lost: count("dead + dropped, for clients of the first status shape."),
    backlog: count("Data waiting to be delivered, in the order they were accepted."),
    oldestBacklogAt: z.iso.datetime().nullable().meta({ description: "When the oldest waiting datum was accepted." }),
    nextAttemptAt: z.iso.datetime().nullable().meta({ description: "When the backlog is tried next." }),
    lastSuccessAt: z.iso.datetime().nullable(),
    lastFailureAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable().meta({ description: "Why the latest failure happened." }),
  })
  .meta({
    id: "DeliveryStatus",
    description: "How deliveries to the observer went.",
  }) satisfies z.ZodType<DeliveryStatus>;

const identity = {
  id: z.uuid().meta({ description: "Assigned by the service." }),
  format: z.enum(observerFormats),
  state: z.enum(["active", "paused", "disabled"]).meta({
    description: "paused and disabled observers receive nothing; their data wait in the backlog.",
  }),
};

const httpAddress = { protocol: z.literal("HTTP"), callbackUrl: z.url() };

const socketAddress = {
  protocol: z.enum(observerProtocols).exclude(["HTTP"]),
  observerHost: z.string().meta({ description: "Lower case; IPv6 compressed, without brackets." }),
  observerPort: observerPortSchema,
};

/** An observer without its status, with `extra` fields, one branch per kind of address. */
function publicObserverWith<const Extra extends z.ZodRawShape>(extra: Extra) {
  return z.discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress, ...extra }),
    z.strictObject({ ...identity, ...socketAddress, ...extra }),
  ]);
}

export const publicObserverSchema = publicObserverWith({}).meta({
  id: "Observer",
  description: "A registered observer, without its secret.",
}) satisfies z.ZodType<PublicObserver>;

const status = { status: deliveryStatusSchema };

const httpDressing = {
  signed: z.boolean().meta({ description: "Whether deliveries are signed: a secret is set (never returned)." }),
  headerNames: z
    .array(z.string())
    .meta({ description: "The names of the extra headers deliveries carry; their values are never returned." }),
};

/** An observer with its status and `extra` fields, one branch per kind of address. */
export function observerReportWith<const Extra extends z.ZodRawShape>(extra: Extra) {
  return z.discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress, ...httpDressing, ...status, ...extra }),
    z.strictObject({ ...identity, ...socketAddress, ...status, ...extra }),
  ]);
}

export const observerReportSchema = observerReportWith({}).meta({
  id: "ObserverReport",
  description: "An observer with its delivery status.",
}) satisfies z.ZodType<ObserverReport>;

/** The answer of a registration or change that generated a secret: shown this once. */
export const observerWithSecretSchema = z
  .discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress, secret: z.string().optional() }),
    z.strictObject({ ...identity, ...socketAddress, secret: z.string().optional() }),
  ])
  .meta({
    id: "RegisteredObserver",
    description: 'A registered observer; `secret` is present only when the request asked for "generate".',
  });

export const observerReportWithSecretSchema = z
  .discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress, ...httpDressing, ...status, secret: z.string().optional() }),
    z.strictObject({ ...identity, ...socketAddress, ...status, secret: z.string().optional() }),
  ])
  .meta({
    id: "ChangedObserver",
    description:
      'An observer with its status after a change; `secret` is present only when the change asked for "generate".',
  });

export const attemptRecordSchema = z
  .strictObject({
    at: z.iso.datetime(),
    attempt: z.int().min(1).meta({ description: "Which attempt at these data (1 = the first)." }),
    ok: z.boolean(),
    httpStatus: z.int().optional().meta({ description: "The observer's answer, for HTTP observers." }),
    error: z.string().optional(),
    latencyMs: z.int().min(0),
    data: z.int().min(0).meta({ description: "Data the attempt carried." }),
    rejected: z
      .int()
      .min(1)
      .optional()
      .meta({ description: "Data points the OTLP receiver rejected (its partialSuccess)." }),
    webhookId: z.string().meta({ description: "The webhook-id of the payload; the same on every retry of it." }),
  })
  .meta({
    id: "DeliveryAttempt",
    description: "One delivery attempt to the observer.",
  }) satisfies z.ZodType<AttemptRecord>;

export const replayAnswerSchema = z
  .strictObject({ data: z.int().min(0).meta({ description: "Dead data put back into the backlog." }) })
  .meta({ id: "Replay" });
