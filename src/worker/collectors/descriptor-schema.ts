import { z } from "zod";
import { rootClass } from "../model/ontology";
import { collectorResourceSchema, type Resource, resourceSchema } from "../model/schema";
import { maxIdentifierLength } from "../vocabulary/rdf-literal-rules";

/*
 * The original's DCDescriptor: what a data collector registers. Its `resources` join the model;
 * `monitoredResourcesByMetric` says, per metric, about which resources it can send data, where
 * `Resource` (the root of the ontology) stands for a resource of any class.
 */

const identifier = z
  .string({ error: (issue) => (issue.input === undefined ? "Required: a non-empty string." : "Must be a string.") })
  .min(1, "Must be a non-empty string.")
  .max(maxIdentifierLength, `Must be at most ${maxIdentifierLength} characters.`);

/** A monitored resource named by the root class: it matches targets of every class. */
const anyResourceSchema = z
  .strictObject({ clazz: z.literal(rootClass), id: identifier, type: z.string().min(1).optional() })
  .meta({ id: "AnyResource", description: "A resource of any class (the original's root class `Resource`)." });

/** A resource of `monitoredResourcesByMetric`: of one of the model's classes, or of any class. */
export type MonitoredResource = Resource | z.output<typeof anyResourceSchema>;

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Judged by the class it names, so that its problems are those of the class the collector meant. */
const monitoredResourceSchema = z.unknown().transform((value, ctx): MonitoredResource => {
  const schema = isJsonObject(value) && value.clazz === rootClass ? anyResourceSchema : collectorResourceSchema;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  return z.NEVER;
});

const seconds = (description: string) =>
  z
    .int({ error: `Must be ${description}, a whole number of seconds.` })
    .max(2_147_483_647, "Must fit a 32-bit integer, as the original's collectors send it.");

function descriptorShape<R extends z.ZodType, M extends z.ZodType>(resource: R, monitoredResource: M) {
  return {
    resources: z.array(resource, { error: "Must be an array of resources." }).default([]),
    monitoredResourcesByMetric: z
      .record(identifier, z.array(monitoredResource, { error: "Must be an array of resources." }), {
        error: "Must be an object of metric names, each with an array of resources.",
      })
      .default({}),
    /** Seconds without news after which the collector is removed; 0 or less: never. */
    keepAlive: seconds("the keep-alive period").default(0),
    configSyncPeriod: seconds("the configuration sync period").min(0, "Must not be negative.").default(0),
  };
}

/** A DCDescriptor as registered: each resource judged by its class, absent fields as the original's defaults. */
export const descriptorSchema = z.strictObject(descriptorShape(collectorResourceSchema, monitoredResourceSchema));

export type Descriptor = z.output<typeof descriptorSchema>;

/** The same, as the API's document shows it and as the service answers it. */
export const documentedDescriptorSchema = z
  .strictObject(descriptorShape(resourceSchema, z.union([resourceSchema, anyResourceSchema])))
  .meta({
    id: "DataCollector",
    description:
      "A data collector's description (the original's DCDescriptor): the resources it adds to the model, per " +
      "metric the resources it can send data about, and its keep-alive and configuration sync periods (seconds).",
  });

/** The path parameter of /data-collectors/:id. */
export const collectorIdParams = z.object({
  id: identifier.meta({ description: "The collector's id, as registration answered it or as the collector chose." }),
});
