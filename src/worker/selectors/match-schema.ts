import { z } from "zod";
import { MAX_SELECTOR_LENGTH, parseSeriesSelector, SelectorSyntaxError } from "./selector-syntax";

export const MAX_SELECTORS_PER_OBSERVER = 20;

const selectorSchema = z
  .string("A selector must be a string.")
  .meta({ description: `A PromQL series selector of at most ${MAX_SELECTOR_LENGTH} characters.` })
  .superRefine((text, ctx) => {
    try {
      parseSeriesSelector(text);
    } catch (error) {
      if (!(error instanceof SelectorSyntaxError)) throw error;
      ctx.addIssue({ code: "custom", message: `Not a valid selector: ${error.message}.`, input: text });
    }
  });

/**
 * The `match` of an observer that follows selectors: checked here, kept as sent. A bad selector is
 * an issue at its index, with the position of its problem; too many (checked before any is parsed)
 * or none, an issue at the array.
 */
export const matchSchema = z
  .array(selectorSchema, "The match must be an array of selectors (strings).")
  .min(1, "Give at least one selector.")
  .max(MAX_SELECTORS_PER_OBSERVER, `At most ${MAX_SELECTORS_PER_OBSERVER} selectors may be given.`)
  .meta({
    description:
      `1 to ${MAX_SELECTORS_PER_OBSERVER} PromQL series selectors; a datum matches when any does. ` +
      "Matchers =, !=, =~, !~ over `__name__` (the metric), the datum's labels and `__resource__` (its resourceId); " +
      "regexes in RE2 syntax, fully anchored; a label a datum lacks reads as empty, and each selector needs a " +
      'matcher that does not match the empty string. A name that is not an identifier is quoted inside the braces: {"cpu.usage_idle"}.',
    examples: [
      ['node_cpu_seconds_total{mode!="idle"}', '{__name__=~"node_.*",job="node"}', '{"cpu.usage_idle",host=~"web-.*"}'],
    ],
  });
