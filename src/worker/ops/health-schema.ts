import { z } from "zod";

/** The answer of GET /healthz. */
export const healthSchema = z
  .strictObject({
    status: z.literal("ok"),
    version: z.string().meta({ description: "The service's release version." }),
  })
  .meta({ id: "Health" });
