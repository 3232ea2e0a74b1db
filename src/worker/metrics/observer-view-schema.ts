import { z } from "zod";
import type { DeliveryStatus } from "../delivery/vocabulary";
import { observerFormats, observerProtocols } from "./observer-kinds";
import { type ObserverReport, observerPortSchema, type PublicObserver } from "./observer-schema";

/*
 * Observers as the API answers them: canonical format and protocol, the address fields of the
 * protocol and never the secret. Each shape is one branch per kind of address, so that a client
 * reads which fields come with which protocol.
 */

const deliveryStatusSchema = z
  .strictObject({
    delivered: z.int().min(0).meta({ description: "Data handed over successfully." }),
    failed: z.int().min(0).meta({ description: "Failed attempts; giving up on a payload counts as one more." }),
    lost: z.int().min(0).meta({ description: "Data given up on after DELIVERY_MAX_ATTEMPTS attempts." }),
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
};

const httpAddress = { protocol: z.literal("HTTP"), callbackUrl: z.url() };

const socketAddress = {
  protocol: z.enum(observerProtocols).exclude(["HTTP"]),
  observerHost: z.string().meta({ description: "Lower case; IPv6 compressed, without brackets." }),
  observerPort: observerPortSchema,
};

export const publicObserverSchema = z
  .discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress }),
    z.strictObject({ ...identity, ...socketAddress }),
  ])
  .meta({
    id: "Observer",
    description: "A registered observer, without its secret.",
  }) satisfies z.ZodType<PublicObserver>;

const status = { status: deliveryStatusSchema };

export const observerReportSchema = z
  .discriminatedUnion("protocol", [
    z.strictObject({ ...identity, ...httpAddress, ...status }),
    z.strictObject({ ...identity, ...socketAddress, ...status }),
  ])
  .meta({
    id: "ObserverReport",
    description: "An observer with its delivery status.",
  }) satisfies z.ZodType<ObserverReport>;
