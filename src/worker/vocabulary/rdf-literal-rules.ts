import type { z } from "zod";
import { getOrCreate } from "../common/get-or-create";
import type { Datum } from "./datum";
import { metricNameSchema } from "./metric-name";
import { type DatumProperty, datumProperties, xsdDouble, xsdInteger, xsdString } from "./rdf-vocabulary";

/*
 * What each datum property accepts, stated once for both readers of intake bodies (the scanner of
 * the common shape and the reader of any parsed body): its datatype and its lexical form, checked
 * by functions. The documented schema (rdf-json-schema.ts) is held to the same verdicts by its test.
 */

/**
 * Longest datum id and resourceId, in UTF-16 code units. Bounding them keeps every datum small
 * enough for a queue message (128 KB) whatever the request holds.
 */
export const maxIdentifierLength = 1_024;

/** C0 and C1 controls: outside xsd:string's characters in practice, and unrepresentable in some formats. */
const controlCharacter = /\p{Cc}/u;

/** An optional sign and decimal digits: the xsd:integer lexical space. */
const integerLexical = /^[+-]?\d+$/;

/** The xsd:double lexical space (XML Schema 1.1, which admits `+INF` and `1.`). */
const doubleLexical = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)$/;

/** Maps an xsd:double lexical form to its value; the special forms are not JavaScript syntax. */
function doubleValue(lexical: string): number {
  if (!lexical.endsWith("INF")) return Number(lexical);
  return lexical.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

/** A lexical form's problems, as messages; none for a valid form. */
export type LexicalCheck = (lexical: unknown) => readonly string[];

const noProblems: readonly string[] = [];

const notAString = (property: DatumProperty) => [`the lexical form of ${property} must be a string`];

/** A check by a zod string schema, for the forms whose rules are shared with other routes. */
function zodCheck(schema: z.ZodType<string>): LexicalCheck {
  return (lexical) => {
    const result = schema.safeParse(lexical);
    return result.success ? noProblems : result.error.issues.map((issue) => issue.message);
  };
}

function timestampProblems(lexical: unknown): readonly string[] {
  if (typeof lexical !== "string") return notAString("timestamp");
  if (!integerLexical.test(lexical)) return ["the timestamp is not an xsd:integer lexical form"];
  if (!Number.isSafeInteger(Number(lexical))) {
    return ["the timestamp is beyond the safe integers (at most 2^53 - 1 milliseconds either side of the epoch)"];
  }
  return noProblems;
}

function valueProblems(lexical: unknown): readonly string[] {
  if (typeof lexical !== "string") return notAString("value");
  return doubleLexical.test(lexical) ? noProblems : ["the value is not an xsd:double lexical form"];
}

function resourceIdProblems(lexical: unknown): readonly string[] {
  if (typeof lexical !== "string") return notAString("resourceId");
  if (lexical === "") return ["the resourceId must not be empty"];
  const problems: string[] = [];
  if (lexical.length > maxIdentifierLength) {
    problems.push(`the resourceId must be at most ${maxIdentifierLength} characters`);
  }
  if (controlCharacter.test(lexical)) problems.push("the resourceId must not contain control characters");
  return problems;
}

export interface PropertyRule<Value> {
  /** The datatype the literal must carry. */
  datatype: string;
  /** A plain literal (no datatype at all) is accepted too. */
  plainAccepted: boolean;
  /** The literal's lexical form. */
  check: LexicalCheck;
  /** Whether the same lexical forms recur across data, so that checking each once per request pays. */
  recurs: boolean;
  toValue(lexical: string): Value;
}

export type PropertyRules = { [P in DatumProperty]: PropertyRule<Omit<Datum, "id">[P]> };

function propertyRules(maxMetricNameLength: number): PropertyRules {
  const identity = (lexical: string) => lexical;
  return {
    metric: {
      datatype: xsdString,
      plainAccepted: true,
      check: zodCheck(metricNameSchema(maxMetricNameLength)),
      recurs: true,
      toValue: identity,
    },
    timestamp: {
      datatype: xsdInteger,
      plainAccepted: false,
      check: timestampProblems,
      recurs: false,
      toValue: Number,
    },
    value: { datatype: xsdDouble, plainAccepted: false, check: valueProblems, recurs: false, toValue: doubleValue },
    resourceId: {
      datatype: xsdString,
      plainAccepted: false,
      check: resourceIdProblems,
      recurs: true,
      toValue: identity,
    },
  };
}

const rulesByMaxMetricNameLength = new Map<number, PropertyRules>();

/** The rules are built once per metric-name limit, as the metric name's zod schema is costly to build. */
export function rulesFor(maxMetricNameLength: number): PropertyRules {
  return getOrCreate(rulesByMaxMetricNameLength, maxMetricNameLength, propertyRules);
}

/**
 * `check`, remembering its verdict on each string it was given (for one request's recurring forms).
 * The last form is compared first: data of one metric or resource often come one after the other,
 * and a comparison costs less than a lookup, which hashes the string.
 */
function remembered(check: LexicalCheck): LexicalCheck {
  const verdicts = new Map<string, readonly string[]>();
  let lastLexical: string | undefined;
  let lastVerdict = noProblems;
  return (lexical) => {
    if (typeof lexical !== "string") return check(lexical);
    if (lexical !== lastLexical) {
      lastVerdict = getOrCreate(verdicts, lexical, check);
      lastLexical = lexical;
    }
    return lastVerdict;
  };
}

/** The rules' checks for one request, remembering the verdicts on the lexical forms that recur. */
export function requestChecks(rules: PropertyRules): Record<DatumProperty, LexicalCheck> {
  return Object.fromEntries(
    datumProperties.map((property) => {
      const { check, recurs } = rules[property];
      return [property, recurs ? remembered(check) : check];
    }),
  ) as Record<DatumProperty, LexicalCheck>;
}
