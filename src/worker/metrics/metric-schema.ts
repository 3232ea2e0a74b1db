import { z } from "zod";
import { limitQuerySchema } from "../http/limit-query";
import { settingDefaults } from "../http/setting-defaults";
import { metricNameSchema } from "../vocabulary/metric-name";
import { recentDataKept } from "./kept-entries";

const maxLength = settingDefaults.MAX_METRIC_NAME_LENGTH;

/**
 * A metric name as documented: the rule of metricNameSchema, at the default limit. Only its
 * length has a JSON Schema form; the description states the rest.
 */
export const documentedMetricName = metricNameSchema(maxLength).meta({
  id: "MetricName",
  description:
    `1 to MAX_METRIC_NAME_LENGTH (${maxLength} unless configured) characters, counted in code points, ` +
    'with no control characters, no "/", no "*", "{" or "}" (a selector\'s: see POST /observers) and no unpaired ' +
    "surrogates. Percent-encoded in a path.",
});

/** Body of PUT /metrics/:id; the whole body is optional. */
export const metricDeclarationSchema = z
  .strictObject({
    description: z.string().optional(),
    unit: z.string().optional(),
  })
  .meta({ id: "MetricDeclaration", description: "What a metric is; a field left out is cleared." });

export type MetricDeclaration = z.output<typeof metricDeclarationSchema>;

/** A metric as GET /metrics/:id shows it. */
export const metricViewSchema = metricDeclarationSchema
  .extend({
    id: documentedMetricName,
    observers: z.int().min(0).meta({ description: "The number of registered observers." }),
    dataAccepted: z.int().min(0).meta({ description: "Data of the metric consumed from the intake queue so far." }),
    acceptedPerMinute: z.array(z.int().min(0)).meta({
      description: "Data consumed in each of the last 10 minutes, oldest first; the last is the current minute.",
    }),
  })
  .meta({ id: "Metric", description: "A metric; description and unit appear only when set." });

export type MetricView = z.output<typeof metricViewSchema>;

/** One datum as GET /metrics/:id/data answers it. */
export const recentDatumSchema = z
  .strictObject({
    id: z.string(),
    resourceId: z.string(),
    value: z
      .number()
      .or(z.enum(["NaN", "INF", "-INF"]))
      .meta({ description: "A number; NaN and ±Infinity as NaN, INF, -INF." }),
    timestamp: z.int().meta({ description: "Milliseconds since the epoch." }),
  })
  .meta({ id: "RecentDatum" });

export const recentDataQuerySchema = limitQuerySchema(recentDataKept, 100);
