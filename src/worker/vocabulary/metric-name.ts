import { z } from "zod";
import { getOrCreate } from "../common/get-or-create";

// \p{Cc} covers C0, DEL and C1. \p{Cs} only matches an unpaired surrogate under the u flag: such a
// name has no UTF-8 form, so two different names would collapse into one once encoded.
const controlCharacter = /\p{Cc}/u;
const unpairedSurrogate = /\p{Cs}/u;
// A name never holds what a selector is written with: one that did would read as following many metrics.
const selectorCharacter = /[*{}]/;

function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function buildMetricNameSchema(maxLength: number) {
  return z
    .string({ error: "metric name must be a string" })
    .min(1, "metric name must not be empty")
    .refine(
      // A UTF-16 length within the limit cannot hold more code points, so most names are not counted.
      (name) => name.length <= maxLength || codePointCount(name) <= maxLength,
      `metric name must be at most ${maxLength} characters long`,
    )
    .refine((name) => !controlCharacter.test(name), "metric name must not contain control characters")
    .refine((name) => !name.includes("/"), 'metric name must not contain "/"')
    .refine(
      (name) => !selectorCharacter.test(name),
      'metric name must not contain "*", "{" or "}": to follow many metrics, register an observer with a selector at POST /observers',
    )
    .refine((name) => !unpairedSurrogate.test(name), "metric name must not contain unpaired surrogates");
}

const schemaByMaxLength = new Map<number, ReturnType<typeof buildMetricNameSchema>>();

/**
 * A metric name (docs/API.md, "Metric names"): 1 to `maxLength` characters (Unicode code points), no control
 * characters, no `/`, which would split the name when it is used as a path segment, and no `*`, `{`
 * or `}`, which are a selector's. Built once per limit: the limit is configuration, and building a
 * zod schema costs more than using it.
 */
export function metricNameSchema(maxLength: number) {
  return getOrCreate(schemaByMaxLength, maxLength, buildMetricNameSchema);
}
