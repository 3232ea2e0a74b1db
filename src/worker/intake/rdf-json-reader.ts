import { z } from "zod";
import { getOrCreate } from "../../shared/get-or-create";
import { type FieldProblem, jsonPointer, zodProblems } from "../../shared/problems";
import { metricNameSchema } from "../metrics/metric-name";
import type { Datum } from "./datum";
import {
  acceptedNamespaces,
  type DatumProperty,
  datumProperties,
  xsdDouble,
  xsdInteger,
  xsdString,
} from "./rdf-vocabulary";

/*
 * The RDF/JSON structure (subjects → predicates → a list holding one literal object) is walked by
 * hand, and zod validates each literal's lexical form. Parsing every literal object with zod object
 * schemas is many times slower without zod's compiled parsers, which Workers forbid (they generate
 * code from strings), and would dominate the cost of intake. What each property accepts is stated
 * once, in `propertyRules`.
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
  if (lexical === "NaN") return Number.NaN;
  if (lexical.endsWith("INF")) return lexical.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return Number(lexical);
}

function lexicalString(property: DatumProperty) {
  return z.string({ error: `the lexical form of ${property} must be a string` });
}

interface PropertyRule<Value> {
  /** The datatype the literal must carry. */
  datatype: string;
  /** A plain literal (no datatype at all) is accepted too. */
  plainAccepted: boolean;
  /** The literal's lexical form. */
  lexical: z.ZodType<string, string>;
  /** Whether the same lexical forms recur across data, so that checking each once per request pays. */
  recurs: boolean;
  toValue(lexical: string): Value;
}

type PropertyRules = { [P in DatumProperty]: PropertyRule<Omit<Datum, "id">[P]> };

function propertyRules(maxMetricNameLength: number): PropertyRules {
  const identity = (lexical: string) => lexical;
  return {
    metric: {
      datatype: xsdString,
      plainAccepted: true,
      lexical: metricNameSchema(maxMetricNameLength),
      recurs: true,
      toValue: identity,
    },
    timestamp: {
      datatype: xsdInteger,
      plainAccepted: false,
      lexical: lexicalString("timestamp")
        // Aborts: the range of a string that is no integer is meaningless.
        .regex(integerLexical, { error: "timestamp is not an xsd:integer lexical form", abort: true })
        .refine(
          (lexical) => Number.isSafeInteger(Number(lexical)),
          "timestamp is beyond the safe integers (at most 2^53 - 1 milliseconds either side of the epoch)",
        ),
      recurs: false,
      toValue: Number,
    },
    value: {
      datatype: xsdDouble,
      plainAccepted: false,
      lexical: lexicalString("value").regex(doubleLexical, "value is not an xsd:double lexical form"),
      recurs: false,
      toValue: doubleValue,
    },
    resourceId: {
      datatype: xsdString,
      plainAccepted: false,
      lexical: lexicalString("resourceId")
        .min(1, "resourceId must not be empty")
        .max(maxIdentifierLength, `resourceId must be at most ${maxIdentifierLength} characters`)
        .refine((lexical) => !controlCharacter.test(lexical), "resourceId must not contain control characters"),
      recurs: true,
      toValue: identity,
    },
  };
}

const rulesByMaxMetricNameLength = new Map<number, PropertyRules>();

/** Zod schemas are costly to build, so the rules are built once per metric-name limit. */
function rulesFor(maxMetricNameLength: number): PropertyRules {
  let rules = rulesByMaxMetricNameLength.get(maxMetricNameLength);
  if (!rules) {
    rules = propertyRules(maxMetricNameLength);
    rulesByMaxMetricNameLength.set(maxMetricNameLength, rules);
  }
  return rules;
}

/** The predicate URIs that may carry each property, one per accepted namespace. */
const predicatesOf = Object.fromEntries(
  datumProperties.map((property) => [property, acceptedNamespaces.map((namespace) => namespace + property)]),
) as Record<DatumProperty, string[]>;

const literalKeys = new Set(["type", "value", "datatype"]);

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads one request; remembers the check of lexical forms that recur (metric names, resource ids). */
class MonitoringDataReader {
  readonly problems: FieldProblem[] = [];
  private readonly checkedLexicalForms = new Map<z.ZodType, Map<string, z.ZodSafeParseResult<string>>>();

  constructor(private readonly rules: PropertyRules) {}

  /** The datum, or undefined after recording its problems. */
  readDatum(id: string, subject: unknown): Datum | undefined {
    if (id === "") this.problem([id], "a datum id must not be empty");
    if (id.length > maxIdentifierLength)
      this.problem([id], `a datum id must be at most ${maxIdentifierLength} characters`);
    if (!isJsonObject(subject)) return this.problem([id], "a datum must be an object of properties");
    const metric = this.readProperty(id, subject, "metric");
    const timestamp = this.readProperty(id, subject, "timestamp");
    const value = this.readProperty(id, subject, "value");
    const resourceId = this.readProperty(id, subject, "resourceId");
    if (metric === undefined || timestamp === undefined || value === undefined || resourceId === undefined) {
      return undefined;
    }
    return { id, metric, timestamp, value, resourceId };
  }

  private readProperty<P extends DatumProperty>(id: string, subject: JsonObject, property: P) {
    let predicate: string | undefined;
    for (const candidate of predicatesOf[property]) {
      // A JSON value is never undefined; reading beats Object.hasOwn, which is slow on these long keys.
      if (subject[candidate] === undefined) continue;
      if (predicate !== undefined) {
        return this.problem(
          [id, candidate],
          `${property} is given in both namespaces ${acceptedNamespaces.join(" and ")}; give it once`,
        );
      }
      predicate = candidate;
    }
    if (predicate === undefined) return this.problem([id], `missing property ${property}`);
    const objects = subject[predicate];
    if (!Array.isArray(objects)) {
      return this.problem([id, predicate], `${property} must be an array holding one literal object`);
    }
    if (objects.length !== 1) {
      return this.problem([id, predicate], `${property} must hold exactly one literal, not ${objects.length}`);
    }
    return this.readLiteral(id, predicate, objects[0], property, this.rules[property]);
  }

  /** The literal is at `/id/predicate/0`; paths are built only for problems, as this runs four times a datum. */
  private readLiteral<Value>(
    id: string,
    predicate: string,
    literal: unknown,
    property: DatumProperty,
    rule: PropertyRule<Value>,
  ): Value | undefined {
    if (!isJsonObject(literal)) return this.problem([id, predicate, 0], `${property} must hold a literal object`);
    const problemsBefore = this.problems.length;
    for (const key in literal) {
      if (!literalKeys.has(key)) this.problem([id, predicate, 0, key], "Unknown field.");
    }
    if (literal.type !== "literal") this.problem([id, predicate, 0, "type"], 'type must be "literal"');
    const { datatype } = literal;
    if (datatype !== rule.datatype && !(datatype === undefined && rule.plainAccepted)) {
      this.problem(
        [id, predicate, 0, "datatype"],
        rule.plainAccepted
          ? `${property} must be a plain literal (no datatype, or ${rule.datatype})`
          : `${property} must have the datatype ${rule.datatype}`,
      );
    }
    const lexical = this.checkLexicalForm(rule, literal.value);
    if (!lexical.success) this.problems.push(...zodProblems(lexical.error, [id, predicate, 0, "value"]));
    return this.problems.length === problemsBefore && lexical.success ? rule.toValue(lexical.data) : undefined;
  }

  private checkLexicalForm(rule: PropertyRule<unknown>, lexical: unknown): z.ZodSafeParseResult<string> {
    if (!rule.recurs || typeof lexical !== "string") return rule.lexical.safeParse(lexical);
    const checked = getOrCreate(this.checkedLexicalForms, rule.lexical, () => new Map());
    return getOrCreate(checked, lexical, (form) => rule.lexical.safeParse(form));
  }

  private problem(path: PropertyKey[], message: string): undefined {
    this.problems.push({ path: jsonPointer(path), message });
    return undefined;
  }
}

export interface MonitoringDataLimits {
  /** Most data one request may carry (config MAX_DATA_PER_REQUEST). */
  maxData: number;
  maxMetricNameLength: number;
}

/**
 * The outcome of reading an intake body: the data, the problems (a 400), or, before anything is
 * validated, the count of data when it exceeds `maxData` (a 413).
 */
export type MonitoringDataResult =
  | { ok: true; data: Datum[] }
  | { ok: false; problems: FieldProblem[] }
  | { ok: false; tooMany: number };

/**
 * Validates a `POST /monitoringdata` body (docs/API.md, "Monitoring data intake"): an RDF/JSON object whose
 * subjects are datum ids. Every problem of every datum is reported, each at its JSON pointer.
 */
export function parseMonitoringData(body: unknown, limits: MonitoringDataLimits): MonitoringDataResult {
  if (!isJsonObject(body)) {
    return { ok: false, problems: [{ path: "", message: "the body must be an RDF/JSON object keyed by datum id" }] };
  }
  const ids = Object.keys(body);
  if (ids.length === 0) return { ok: false, problems: [{ path: "", message: "the body holds no data" }] };
  if (ids.length > limits.maxData) return { ok: false, tooMany: ids.length };

  const reader = new MonitoringDataReader(rulesFor(limits.maxMetricNameLength));
  const data: Datum[] = [];
  for (const id of ids) {
    const datum = reader.readDatum(id, body[id]);
    if (datum) data.push(datum);
  }
  return reader.problems.length > 0 ? { ok: false, problems: reader.problems } : { ok: true, data };
}
