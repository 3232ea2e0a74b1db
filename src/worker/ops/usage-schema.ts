import { z } from "zod";
import type { usage } from "./usage";

const count = (description: string) => z.int().min(0).meta({ description });

/** The answer of GET /usage: the answering instance's counts since it started. */
export const usageSchema = z
  .strictObject({
    since: z.iso.datetime().meta({ description: "When this instance started counting." }),
    dataAccepted: count("Data accepted by the intake."),
    durableObjectRequests: count("Calls to the per-metric storage objects."),
    queueMessagesWritten: count("Queue messages sent to the intake queue."),
    queueMessagesRead: count("Queue messages received by the consumers."),
    outboundRequests: count("HTTP requests made to observers and to the relay."),
    backlogDataWritten: count("Data written to observers' backlogs (failed, held or unfinished deliveries)."),
  })
  .meta({
    id: "Usage",
    description: "Platform operations of the instance that answers; each instance counts its own, from its start.",
  }) satisfies z.ZodType<typeof usage>;
