import { assertJsonDepth } from "../../../shared/http/json-text";
import { type FieldProblem, jsonPointer, unknownField } from "../../../shared/problems";
import type { Datum } from "../../vocabulary/datum";
import {
  type LexicalCheck,
  maxIdentifierLength,
  type PropertyRule,
  type PropertyRules,
  requestChecks,
  rulesFor,
} from "../../vocabulary/rdf-literal-rules";
import { acceptedNamespaces, type DatumProperty, datumProperties } from "../../vocabulary/rdf-vocabulary";
import { missingPropertyMessage, noDataMessage, notAnObjectMessage, towerDatumMessage } from "./rdf-json-hints";

/*
 * The RDF/JSON structure (subjects → predicates → a list holding one literal object) is walked by
 * hand. Parsing every literal object with zod object schemas is many times slower without zod's
 * compiled parsers, which Workers forbid (they generate code from strings), and would dominate the
 * cost of intake. This reader reads any parsed body and reports every problem; most bodies are
 * read by rdf-json-scanner.ts instead, straight from their text.
 */

/** The predicate URIs that may carry each property, one per accepted namespace. */
const predicatesOf = Object.fromEntries(
  datumProperties.map((property) => [property, acceptedNamespaces.map((namespace) => namespace + property)]),
) as Record<DatumProperty, string[]>;

/** The fields of a literal object; compared directly, as this runs for every field of every literal. */
const isLiteralField = (key: string) => key === "type" || key === "value" || key === "datatype";
const literalFields = ["type", "value", "datatype"];

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The property each predicate carries; a subject's other predicates are ignored. */
const propertyOf = new Map<string, DatumProperty>(
  datumProperties.flatMap((property) => predicatesOf[property].map((predicate) => [predicate, property] as const)),
);

/** The predicate that carries each property in one subject: null when it is given twice, undefined when missing. */
type FoundPredicates = Record<DatumProperty, string | null | undefined>;

/**
 * A check's message as the API words its problems: a sentence. The checks word theirs to be
 * quoted inside others too ("metric name must not be empty").
 */
function sentence(message: string): string {
  return `${message[0]!.toUpperCase()}${message.slice(1)}${message.endsWith(".") ? "" : "."}`;
}

/** Reads one request; remembers the verdicts on lexical forms that recur (metric names, resource ids). */
class MonitoringDataReader {
  readonly problems: FieldProblem[] = [];
  private readonly checks: Record<DatumProperty, LexicalCheck>;
  /** Reused from datum to datum: a request holds many. */
  private readonly found: FoundPredicates = {
    metric: undefined,
    timestamp: undefined,
    value: undefined,
    resourceId: undefined,
  };

  constructor(private readonly rules: PropertyRules) {
    this.checks = requestChecks(rules);
  }

  /** The datum, or undefined after recording its problems. */
  readDatum(id: string, subject: unknown): Datum | undefined {
    if (id === "") this.problem([id], "A datum id must not be empty.");
    if (id.length > maxIdentifierLength)
      this.problem([id], `A datum id must be at most ${maxIdentifierLength} characters.`);
    if (!isJsonObject(subject)) {
      return this.problem([id], "Must be a datum: an object of its properties, each named by its full IRI.");
    }
    this.findPredicates(id, subject);
    const metric = this.readProperty(id, subject, "metric");
    const timestamp = this.readProperty(id, subject, "timestamp");
    const value = this.readProperty(id, subject, "value");
    const resourceId = this.readProperty(id, subject, "resourceId");
    if (metric === undefined || timestamp === undefined || value === undefined || resourceId === undefined) {
      return undefined;
    }
    return { id, metric, timestamp, value, resourceId };
  }

  /**
   * Finds which predicate carries each property, in one pass over the subject. The predicates the
   * reader ignores are never walked, so their values are held to the depth limit here (below the
   * body and the subject); the body as a whole is checked only when it is refused.
   */
  private findPredicates(id: string, subject: JsonObject): void {
    const { found } = this;
    found.metric = found.timestamp = found.value = found.resourceId = undefined;
    for (const predicate in subject) {
      const property = propertyOf.get(predicate);
      if (property === undefined) {
        assertJsonDepth(subject[predicate], 2);
      } else if (found[property] === undefined) {
        found[property] = predicate;
      } else if (found[property] !== null) {
        found[property] = null;
        this.problem(
          [id, predicatesOf[property][1]!],
          `The ${property} is given in both namespaces ${acceptedNamespaces.join(" and ")}; give it once.`,
        );
      }
    }
  }

  private readProperty<P extends DatumProperty>(id: string, subject: JsonObject, property: P) {
    const predicate = this.found[property];
    if (predicate === null) return undefined;
    if (predicate === undefined) {
      return this.problem([id], missingPropertyMessage(subject, property, this.rules));
    }
    const objects = subject[predicate];
    if (!Array.isArray(objects)) {
      return this.problem([id, predicate], "Must be an array holding one literal object.");
    }
    if (objects.length !== 1) {
      return this.problem([id, predicate], `Must hold exactly one literal, not ${objects.length}.`);
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
    if (!isJsonObject(literal)) {
      return this.problem([id, predicate, 0], 'Must be a literal object: {"type":"literal","value":…}.');
    }
    const problemsBefore = this.problems.length;
    for (const key in literal) {
      if (!isLiteralField(key)) this.problem([id, predicate, 0, key], unknownField(key, literalFields));
    }
    if (literal.type !== "literal") this.problem([id, predicate, 0, "type"], 'Must be "literal".');
    const { datatype } = literal;
    if (datatype !== rule.datatype && !(datatype === undefined && rule.plainAccepted)) {
      this.problem(
        [id, predicate, 0, "datatype"],
        rule.plainAccepted
          ? `Must be ${rule.datatype}, or absent (a plain literal).`
          : datatype === undefined
            ? `Required: the datatype ${rule.datatype}.`
            : `Must be ${rule.datatype}.`,
      );
    }
    const lexical = literal.value;
    for (const message of this.checks[property](lexical)) {
      this.problem([id, predicate, 0, "value"], sentence(message));
    }
    return this.problems.length === problemsBefore ? rule.toValue(lexical as string) : undefined;
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
  const refused = (message: string) => ({ ok: false as const, problems: [{ path: "", message }] });
  if (!isJsonObject(body)) return refused(notAnObjectMessage(body));
  const towerDatum = towerDatumMessage(body);
  if (towerDatum !== undefined) return refused(towerDatum);
  const ids = Object.keys(body);
  if (ids.length === 0) return refused(noDataMessage());
  if (ids.length > limits.maxData) return { ok: false, tooMany: ids.length };

  const reader = new MonitoringDataReader(rulesFor(limits.maxMetricNameLength));
  const data: Datum[] = [];
  for (const id of ids) {
    const datum = reader.readDatum(id, body[id]);
    if (datum) data.push(datum);
  }
  return reader.problems.length > 0 ? { ok: false, problems: reader.problems } : { ok: true, data };
}
