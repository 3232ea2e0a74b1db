import { z } from "zod";
import { type FieldProblem, zodProblems } from "../../../shared/problems";
import { getOrCreate } from "../../common/get-or-create";
import { settingDefaults } from "../../http/setting-defaults";
import type { Datum } from "../../vocabulary/datum";
import { metricNameSchema } from "../../vocabulary/metric-name";
import { maxIdentifierLength } from "../../vocabulary/rdf-literal-rules";

/*
 * What the original's data collectors post to a stream: a flat JSON array of
 * `{"resourceId","metric","value"}`, without timestamps (the original stamped data on arrival) and
 * without datum ids.
 */

/** A number as the original's collectors write one in a string (Java's decimal forms, and its special values). */
const numberText = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[dDfF]?$/;
const specialValues: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  "+Infinity": Number.POSITIVE_INFINITY,
  "-Infinity": Number.NEGATIVE_INFINITY,
};

/** A sent value as a datum's value: numbers as they are, booleans 1/0, numbers in strings; other strings are no data. */
export function streamValue(value: number | boolean | string): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const text = value.trim();
  if (Object.hasOwn(specialValues, text)) return specialValues[text];
  return numberText.test(text) ? Number.parseFloat(text) : undefined;
}

const buildElementSchema = (maxMetricNameLength: number) =>
  z.object(
    {
      resourceId: z
        .string({ error: "Must be a string: the id of the resource the datum is about." })
        .min(1, "Must not be empty.")
        .max(maxIdentifierLength, `Must be at most ${maxIdentifierLength} characters.`),
      metric: metricNameSchema(maxMetricNameLength),
      value: z.union([z.number(), z.boolean(), z.string()], { error: "Must be a number, a boolean or a string." }),
    },
    { error: 'Must be an object {"resourceId","metric","value"}.' },
  );

const bodySchemaByMaxLength = new Map<number, ReturnType<typeof buildBodySchema>>();

function buildBodySchema(maxMetricNameLength: number) {
  return z.array(buildElementSchema(maxMetricNameLength), { error: "Must be an array of data." });
}

/** The body's schema for a metric-name limit, built once per limit (the limit is configuration). */
const bodySchema = (maxMetricNameLength: number) =>
  getOrCreate(bodySchemaByMaxLength, maxMetricNameLength, buildBodySchema);

/** The body as the API's document shows it, with the default limits. */
export const streamBodySchema = buildBodySchema(settingDefaults.MAX_METRIC_NAME_LENGTH).meta({
  id: "StreamData",
  description:
    "Data as the original's collectors send them: no timestamp (the time of arrival is used) and no datum id.",
});

export interface StreamLimits {
  maxData: number;
  maxMetricNameLength: number;
}

/** What a stream request holds: its data (stamped `arrivedAt`), the values that were no data, or its problems. */
export type StreamReading =
  | { ok: true; data: Datum[]; skipped: number }
  | { ok: false; problems: FieldProblem[] }
  | { ok: false; tooMany: number };

/**
 * Reads a parsed body: every element must have the shape, or nothing is accepted; a string value
 * that is no number is skipped. Datum ids are made from `requestId` and the element's index, so
 * that data of one resource sent together at one instant stay apart.
 */
export function readStreamData(
  body: unknown,
  arrivedAt: number,
  requestId: string,
  limits: StreamLimits,
): StreamReading {
  if (Array.isArray(body) && body.length > limits.maxData) return { ok: false, tooMany: body.length };
  const parsed = bodySchema(limits.maxMetricNameLength).safeParse(body);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  const data: Datum[] = [];
  parsed.data.forEach((element, index) => {
    const value = streamValue(element.value);
    if (value === undefined) return;
    data.push({
      id: `${requestId}-${index}`,
      metric: element.metric,
      resourceId: element.resourceId,
      value,
      timestamp: arrivedAt,
    });
  });
  return { ok: true, data, skipped: parsed.data.length - data.length };
}
