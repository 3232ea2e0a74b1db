import { z } from "zod";
import { countedBindings, intakeRoutes, type usage } from "../common/usage";

const count = (description: string) => z.int().min(0).meta({ description });

const routeCountsSchema = z.strictObject({
  dataAccepted: count("Data the route accepted."),
  refused: count("Lines, series or data points refused while the rest of their request was accepted."),
  stringFieldsSkipped: count(
    "String values that are no number (line-protocol string fields, data collectors' strings), which are no data.",
  ),
  staleMarkersSkipped: count("Prometheus stale markers, which end a series rather than carry a value."),
});

/** The answer of GET /usage: the answering instance's counts since it started. */
export const usageSchema = z
  .strictObject({
    since: z.iso.datetime().meta({ description: "When this instance started counting." }),
    dataAccepted: count("Data accepted by the intake."),
    durableObjectRequests: count("Calls to Durable Objects, of every class: each RPC call is one request."),
    durableObjectRequestsByBinding: z
      .strictObject(
        Object.fromEntries(countedBindings.map((binding) => [binding, count(`Calls to the ${binding} objects.`)])) as {
          [B in (typeof countedBindings)[number]]: ReturnType<typeof count>;
        },
      )
      .meta({ description: "The same calls, per Durable Object binding (class)." }),
    queueMessagesWritten: count("Queue messages sent to the intake queue."),
    queueMessagesRead: count("Queue messages received by the consumers."),
    outboundRequests: count("HTTP requests made to observers and to the relay."),
    backlogDataWritten: count("Data written to observers' backlogs (failed, held or unfinished deliveries)."),
    intake: z
      .strictObject(
        Object.fromEntries(intakeRoutes.map((route) => [route, routeCountsSchema])) as {
          [R in (typeof intakeRoutes)[number]]: typeof routeCountsSchema;
        },
      )
      .meta({ description: "Per way in (its route without /v1): what it accepted, refused and skipped." }),
  })
  .meta({
    id: "Usage",
    description: "Platform operations of the instance that answers; each instance counts its own, from its start.",
  }) satisfies z.ZodType<typeof usage>;
