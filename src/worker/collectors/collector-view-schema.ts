import { z } from "zod";
import { documentedDescriptorSchema } from "./descriptor-schema";

/*
 * What the registry's routes answer, as the API's document shows it.
 */

/** The one data format the original's collectors send. */
export const collectorDataFormat = "TOWER/JSON";

export const collectorConfigurationSchema = z
  .record(
    z.string(),
    z.array(
      z.strictObject({
        parameters: z.record(z.string(), z.string()),
        targetResources: z.array(z.tuple([z.string(), z.string().nullable(), z.string().nullable()])),
        daUrl: z.string(),
        dataFormat: z.literal(collectorDataFormat),
      }),
    ),
  )
  .meta({
    id: "DataCollectorConfiguration",
    description:
      "Per metric the collector declared, one entry per distinct configuration of the installed rules that collect " +
      "it about one of the resources declared for it: their parameters, their targets as [class, type, id] (null " +
      "where the rule names none), where to send the data and in which format. {} when no rule asks for anything.",
  });

export const registeredSchema = z.strictObject({ id: z.string() }).meta({ description: "The collector's id." });

export const collectorListSchema = z
  .record(z.string(), documentedDescriptorSchema)
  .meta({ description: "Every registered collector's description, by id." });

export const collectorStateSchema = z
  .strictObject({
    id: z.string(),
    descriptor: documentedDescriptorSchema,
    configuration: collectorConfigurationSchema,
    registeredAt: z.iso.datetime(),
    lastHeardAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().meta({ description: "null: the collector never expires (keepAlive ≤ 0)." }),
  })
  .meta({ id: "DataCollectorState" });

export const requiredMetricsSchema = z
  .array(z.string())
  .meta({ description: "The metrics the installed rules read and no rule produces, sorted." });
