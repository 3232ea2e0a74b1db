import { getOrCreate } from "../../common/get-or-create";
import type { Datum } from "../../vocabulary/datum";
import {
  type LexicalCheck,
  maxIdentifierLength,
  type PropertyRule,
  type PropertyRules,
  requestChecks,
  rulesFor,
} from "../../vocabulary/rdf-literal-rules";
import { acceptedNamespaces, datumProperties } from "../../vocabulary/rdf-vocabulary";
import type { MonitoringDataLimits } from "./rdf-json-reader";

/*
 * The fast path of intake: reads a body of the common shape straight from its text, building
 * nothing but the data. A generic JSON parse builds every subject, predicate list and literal as
 * objects and strings first, which costs more than everything else intake does. The common shape:
 * subjects whose ids do not start with a digit (JSON objects order such keys apart) and are given
 * once, each with the four datum predicates once, each holding one literal whose fields are given
 * once and whose strings need no escapes, whitespace anywhere JSON allows it. Anything else, and any
 * datum that is not valid, makes the scanner give up: the caller then parses the body as JSON and
 * reads it with rdf-json-reader.ts, which reports every problem. The scanner therefore never decides
 * differently from that reader; it only decides sooner.
 */

const comma = 0x2c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const digitZero = 0x30;
const digitNine = 0x39;
const letterT = 0x74;
const letterD = 0x64;

/** The scan ends here without a verdict: the caller reads the body the general way. */
class NotCommonShape extends Error {}
const giveUp = new NotCommonShape();

/*
 * Tokens are matched by sticky regular expressions, which the engine compiles to native code:
 * they compare the long constant strings of RDF/JSON (predicate and datatype URIs) several times
 * faster than string methods or a loop over characters can.
 */

/** JSON's whitespace (not all of what `\s` matches). */
const space = "[ \\t\\n\\r]*";

/**
 * A string without escapes, so its text is its value. JSON forbids raw C0 controls in strings;
 * other controls are left to the general path too.
 */
const plainStringPattern = '"[^"\\\\\\p{Cc}]*"';

/** A datum id and the colon after it. */
const plainKey = new RegExp(`${plainStringPattern}${space}:`, "uy");

/** A string without escapes whose text is captured. */
const capturedPlainString = '"([^"\\\\\\p{Cc}]*)"';

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const namespacePattern = `(?:${acceptedNamespaces.map(escapeForPattern).join("|")})`;

/** A datum predicate in either accepted namespace, the colon, and the opening of its list. */
const predicateOpening = new RegExp(`"${namespacePattern}(?:${datumProperties.join("|")})"${space}:${space}\\[`, "y");

/** The property a predicate carries, by the first letter of its local name (each differs): its index, + 1. */
const propertyByInitial = new Uint8Array(128);
datumProperties.forEach((property, index) => {
  propertyByInitial[property.charCodeAt(0)] = index + 1;
});

/** A literal's fields, each with its value: type must be "literal"; a value is a string without escapes. */
const typeFieldPattern = `"type"${space}:${space}"literal"`;
const valueFieldPattern = (stringPattern: string) => `"value"${space}:${space}${stringPattern}`;
const typeField = new RegExp(typeFieldPattern, "y");
const valueField = new RegExp(valueFieldPattern(plainStringPattern), "uy");

const datatypeField = (datatype: string) => `"datatype"${space}:${space}"${escapeForPattern(datatype)}"`;

/**
 * A whole datum in the order most senders write (and JSON.stringify keeps): its id, then the four
 * predicates in the order of `datumProperties`, each with one literal of type, value and datatype
 * in that order (the datatype left out where the rules accept a plain literal), up to the datum's
 * closing brace; the id and the four lexical forms captured. One match reads what the scan would
 * take some twenty steps for.
 */
function commonOrderPattern(rules: PropertyRules): RegExp {
  const literal = ({ datatype, plainAccepted }: PropertyRule<unknown>) => {
    const datatypePart = `${space},${space}${datatypeField(datatype)}`;
    return (
      `\\[${space}\\{${space}${typeFieldPattern}${space},${space}${valueFieldPattern(capturedPlainString)}` +
      `${plainAccepted ? `(?:${datatypePart})?` : datatypePart}${space}\\}${space}\\]`
    );
  };
  const predicates = datumProperties.map(
    (property) => `"${namespacePattern}${property}"${space}:${space}${literal(rules[property])}`,
  );
  return new RegExp(
    `${space}${capturedPlainString}${space}:${space}\\{${space}${predicates.join(`${space},${space}`)}${space}\\}`,
    "uy",
  );
}

/** The patterns that depend on the rules: each property's datatype field, and a datum in the common order. */
interface Patterns {
  datatypeFields: RegExp[];
  commonOrder: RegExp;
}

/** Rules, checks and patterns by property, in the order of `datumProperties` (index access is the fastest). */
interface PropertyTables extends Patterns {
  rules: PropertyRule<unknown>[];
  checks: LexicalCheck[];
}

const patternsByRules = new WeakMap<PropertyRules, Patterns>();

const patternsFor = (rules: PropertyRules): Patterns => ({
  datatypeFields: datumProperties.map((property) => new RegExp(datatypeField(rules[property].datatype), "y")),
  commonOrder: commonOrderPattern(rules),
});

/**
 * `id` if the general path reads it as a datum id in the place it has in the text: not empty, not
 * index-like (JSON objects order keys that look like array indexes before all others), not too long.
 */
function acceptedId(id: string): string {
  const first = id.charCodeAt(0);
  if (id === "" || (first >= digitZero && first <= digitNine) || id.length > maxIdentifierLength) throw giveUp;
  return id;
}

class BodyScanner {
  private position = 0;
  private readonly tables: PropertyTables;
  /** Each property's lexical form in the datum being read, reused from datum to datum. */
  private readonly lexicals: (string | undefined)[] = datumProperties.map(() => undefined);

  constructor(
    private readonly text: string,
    private readonly rules: PropertyRules,
  ) {
    const checks = requestChecks(rules);
    this.tables = {
      rules: datumProperties.map((property) => rules[property]),
      checks: datumProperties.map((property) => checks[property]),
      ...getOrCreate(patternsByRules, rules, patternsFor),
    };
  }

  /** The data of the whole body, in the order of the text. */
  body(maxData: number): Datum[] {
    const data: Datum[] = [];
    const ids = new Set<string>();
    const { text } = this;
    this.expect(openBrace);
    do {
      const datum = this.commonOrderDatum() ?? this.datum(this.id());
      if (ids.has(datum.id)) throw giveUp;
      ids.add(datum.id);
      data.push(datum);
      if (data.length > maxData) throw giveUp;
    } while (this.separator(closeBrace));
    this.skipWhitespace();
    if (this.position !== text.length) throw giveUp;
    return data;
  }

  /** A datum id and the colon after it; the id must be one the general path keeps in the same place. */
  private id(): string {
    const { text } = this;
    const start = this.advance(plainKey) + 1;
    return acceptedId(text.slice(start, text.indexOf('"', start)));
  }

  /**
   * The datum that comes next if it is written in the common order; null, with nothing read, if it
   * is not. A lexical form that fails its check ends the scan, as in the token scan.
   */
  private commonOrderDatum(): Datum | null {
    const { commonOrder, checks } = this.tables;
    commonOrder.lastIndex = this.position;
    const match = commonOrder.exec(this.text);
    if (match === null) return null;
    // Group 1 is the id; groups 2 to 5 the lexical forms, in the order of `datumProperties`.
    for (let index = 0; index < checks.length; index++) {
      if (checks[index]!(match[index + 2]).length > 0) throw giveUp;
    }
    this.position = commonOrder.lastIndex;
    return this.toDatum(acceptedId(match[1]!), match[2]!, match[3]!, match[4]!, match[5]!);
  }

  private datum(id: string): Datum {
    const { lexicals, text } = this;
    lexicals.fill(undefined);
    this.expect(openBrace);
    do {
      const start = this.advance(predicateOpening);
      const index = propertyByInitial[text.charCodeAt(text.indexOf("#", start) + 1)]! - 1;
      if (lexicals[index] !== undefined) throw giveUp;
      lexicals[index] = this.literal(index);
      this.expect(closeBracket);
    } while (this.separator(closeBrace));
    const [metric, timestamp, value, resourceId] = lexicals;
    if (metric === undefined || timestamp === undefined || value === undefined || resourceId === undefined) {
      throw giveUp;
    }
    return this.toDatum(id, metric, timestamp, value, resourceId);
  }

  private toDatum(id: string, metric: string, timestamp: string, value: string, resourceId: string): Datum {
    const { rules } = this;
    return {
      id,
      metric,
      timestamp: rules.timestamp.toValue(timestamp),
      value: rules.value.toValue(value),
      resourceId,
    };
  }

  /** One literal object: its lexical form, once its type, datatype and form have passed the checks. */
  private literal(index: number): string {
    const { text, tables } = this;
    let typed = false;
    let datatyped = false;
    let lexical: string | undefined;
    this.expect(openBrace);
    do {
      this.skipWhitespace();
      // The field's name tells from its first letter which pattern can match it.
      const initial = text.charCodeAt(this.position + 1);
      if (initial === letterT && !typed) {
        typed = this.advance(typeField) >= 0;
      } else if (initial === letterD && !datatyped) {
        datatyped = this.advance(tables.datatypeFields[index]!) >= 0;
      } else if (lexical === undefined) {
        this.advance(valueField);
        const closing = this.position - 1;
        lexical = text.slice(text.lastIndexOf('"', closing - 1) + 1, closing);
      } else {
        throw giveUp;
      }
    } while (this.separator(closeBrace));
    const datatypeFits = datatyped || tables.rules[index]!.plainAccepted;
    if (!typed || !datatypeFits || lexical === undefined || tables.checks[index]!(lexical).length > 0) throw giveUp;
    return lexical;
  }

  /** Whether a comma follows (more to come), or else `close` (the end of the object or array). */
  private separator(close: number): boolean {
    this.skipWhitespace();
    const next = this.text.charCodeAt(this.position++);
    if (next === comma) return true;
    if (next === close) return false;
    throw giveUp;
  }

  /**
   * Moves past `pattern`, which must match where the scan stands after any whitespace; returns
   * where the match starts. A test, not an exec: no match object to build and collect.
   */
  private advance(pattern: RegExp): number {
    this.skipWhitespace();
    const start = this.position;
    pattern.lastIndex = start;
    if (!pattern.test(this.text)) throw giveUp;
    this.position = pattern.lastIndex;
    return start;
  }

  private expect(code: number): void {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.position) !== code) throw giveUp;
    this.position++;
  }

  /** JSON's whitespace: space, tab, line feed, carriage return. */
  private skipWhitespace(): void {
    const { text } = this;
    let position = this.position;
    for (;;) {
      const code = text.charCodeAt(position);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
      position++;
    }
    this.position = position;
  }
}

/**
 * The data of an intake body of the common shape, all valid; undefined for any other body, which
 * must then be parsed and read in full (it may still be valid).
 */
export function scanMonitoringData(text: string, limits: MonitoringDataLimits): Datum[] | undefined {
  try {
    return new BodyScanner(text, rulesFor(limits.maxMetricNameLength)).body(limits.maxData);
  } catch (error) {
    if (error instanceof NotCommonShape) return undefined;
    throw error;
  }
}
