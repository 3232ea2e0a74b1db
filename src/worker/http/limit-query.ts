import { z } from "zod";

/** The `?limit=` of a route that answers the latest entries of something: 1 to `maximum`, `fallback` when absent. */
export function limitQuerySchema(maximum: number, fallback: number) {
  return z.object({
    limit: z.coerce
      .number("The limit must be a number.")
      .int("The limit must be a whole number.")
      .min(1, "The limit must be at least 1.")
      .max(maximum, `The limit must be at most ${maximum}.`)
      .default(fallback)
      .meta({ description: `How many, newest first (default ${fallback}, at most ${maximum}).` }),
  });
}
