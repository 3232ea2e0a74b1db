import { z } from "zod";
import { documentedMetricName } from "../metrics/metric-schema";
import { observerListSchema } from "../observers/selector-observer-view-schema";
import { usageSchema } from "../ops/usage-schema";

const count = (description: string) => z.int().min(0).meta({ description });

const perMinute = z.array(z.int().min(0)).meta({
  description: "Data consumed in each of the last 10 minutes, oldest first; the last is the current minute.",
});

const perSecond = z.number().min(0).meta({
  description: "Data consumed per second over the last minute (the previous whole minute and this one so far).",
});

export const metricSummarySchema = z
  .strictObject({
    id: documentedMetricName,
    description: z.string().optional(),
    unit: z.string().optional(),
    observers: count("Its own observers (observers that follow selectors not included)."),
    dataAccepted: count("Data of the metric consumed from the intake queue so far."),
    acceptedPerMinute: perMinute,
    dataPerSecond: perSecond,
    latestDatumAt: z.int().nullable().meta({
      description: "The timestamp of the newest datum kept (milliseconds since the epoch); null before the first.",
    }),
    failingObservers: count("Its observers whose latest attempt failed."),
    backloggedObservers: count("Its observers with data waiting in their backlog."),
    backlog: count("Data waiting in its observers' backlogs, in all."),
  })
  .meta({ id: "MetricSummary", description: "A metric's figures, as of its latest consumer batch or change." });

/** GET /summary: what the overview shows, in one answer. */
export const summarySchema = z
  .strictObject({
    at: z.iso.datetime().meta({ description: "When the summary was put together." }),
    intake: z
      .strictObject({
        dataAccepted: count("Data consumed so far, of every metric that exists."),
        acceptedPerMinute: perMinute,
        dataPerSecond: perSecond,
        since: usageSchema.shape.since,
        routes: usageSchema.shape.intake,
      })
      .meta({
        description:
          "The service's intake, from every metric's figures; `since` and `routes` are the answering instance's " +
          "counts per way in, as GET /usage has them.",
      }),
    metrics: z.array(metricSummarySchema).meta({ description: "Every metric, by name in code point order." }),
    observers: observerListSchema,
  })
  .meta({
    id: "Summary",
    description:
      "Every metric and observer with its figures, kept up to date by the consumer's batches and by every change; " +
      "a batch's figures show once it was consumed.",
  });

export type Summary = z.output<typeof summarySchema>;
export type MetricSummary = z.output<typeof metricSummarySchema>;
export type ListedObserver = z.output<typeof observerListSchema>[number];
