import { z } from "zod";

/** The answer of GET /healthz. */
export const healthSchema = z
  .strictObject({
    status: z.literal("ok"),
    version: z.string().meta({ description: "The service's release version." }),
    instance: z.string().meta({
      description:
        "This service's instance id: the same across restarts, another for every other service. Deliveries name it " +
        "in tower-edge-via, and the intake refuses (508) a request that names it.",
    }),
  })
  .meta({ id: "Health" });

export type Health = z.output<typeof healthSchema>;
