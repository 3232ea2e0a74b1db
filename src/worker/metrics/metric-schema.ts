import { z } from "zod";

/** Body of PUT /metrics/:id; the whole body is optional. */
export const metricDeclarationSchema = z.strictObject({
  description: z.string().optional(),
  unit: z.string().optional(),
});

export type MetricDeclaration = z.output<typeof metricDeclarationSchema>;

/** A metric as GET /metrics/:id shows it. */
export type MetricView = MetricDeclaration & { id: string; observers: number };
