/**
 * The InfluxDB line protocol, read in one pass over the request's text: the grammar and the
 * escapes of InfluxData's reference decoder (github.com/influxdata/line-protocol), tested against
 * its conformance corpus. Names are sliced from the text, and unescaped only when they hold an
 * escape; nothing backtracks, so reading is linear in the body's length.
 *
 * A bad line is refused alone, the others are kept (InfluxDB's partial write). A line is refused
 * from where it went wrong to the next newline, as the reference decoder does, so an unterminated
 * string takes the rest of the body with it.
 */

import type { Label, LineField, LineFieldType } from "../../vocabulary/datum";
import type { LabelledPoints, RefusedPart, SeriesPoint } from "../common/series";
import { fieldType, fieldValue } from "./field-value";
import { type LinePrecision, timestampMilliseconds } from "./timestamp";

export type { LinePrecision } from "./timestamp";

export interface LineProtocolResult {
  /**
   * One per accepted line that has points: the tags as labels (unescaped, in the order sent), a
   * point per number or boolean field (with its measurement, field key and type: one array for all
   * points of them), and the line's number (1-based) as origin.
   */
  series: LabelledPoints[];
  /** The first `refusalDetailLimit` bad lines, each with its line number and why. */
  refused: RefusedPart[];
  /** Every bad line, also those past the detail limit. */
  refusedLines: number;
  /** String fields of accepted lines: they are not data. */
  stringFieldsSkipped: number;
  /** The points of `series`. */
  points: number;
  /**
   * The body holds more than `maxPoints` points. Reading stopped at the line that went past, so
   * the result is incomplete and the request is to be refused whole.
   */
  tooMany: boolean;
}

/**
 * Bad lines described one by one; the rest are only counted, so that a body of garbage costs no
 * more memory than the body itself.
 */
export const refusalDetailLimit = 100;

/** How much of a bad line its refusal quotes. */
const excerptLength = 64;
/** Up to this many tags, duplicates are looked for pair by pair (no allocation); past it, with a set (linear). */
const tagsComparedPairwise = 8;

const tab = 9;
const lineFeed = 10;
const carriageReturn = 13;
const space = 32;
const quote = 34;
const hash = 35;
const comma = 44;
const minus = 45;
const zero = 48;
const nine = 57;
const equals = 61;
const backslash = 92;
const del = 127;

const noLabels: readonly Label[] = [];

/** A field key of a measurement, with what its points share. */
interface KnownField {
  key: string;
  metric: string;
  /** The points' line by the type of their value, made when a value of that type is first read. */
  lines: Partial<Record<LineFieldType, LineField>>;
}

/**
 * The series and refusals of a line-protocol body. Timestamps are in `precision`; a line without
 * one is stamped `arrivalMs`. Past `maxPoints` points, reading stops (`tooMany`).
 */
export function parseLineProtocol(
  text: string,
  precision: LinePrecision,
  arrivalMs: number,
  maxPoints: number,
): LineProtocolResult {
  return new LineProtocolParser(text, precision, arrivalMs, maxPoints).read();
}

/** Whether a backslash escapes the character: in measurements `,` and space, in keys and tag values also `=`. */
const isEscapable = (code: number, isKey: boolean) => code === comma || code === space || (isKey && code === equals);

/** `text[start, end)` with its escapes resolved; a backslash before any other character stays. */
function unescaped(text: string, start: number, end: number, isKey: boolean): string {
  let result = "";
  let from = start;
  for (let index = start; index < end - 1; index++) {
    if (text.charCodeAt(index) === backslash && isEscapable(text.charCodeAt(index + 1), isKey)) {
      result += text.slice(from, index);
      from = ++index;
    }
  }
  return result + text.slice(from, end);
}

function hasDuplicateKey(labels: readonly Label[]): boolean {
  if (labels.length > tagsComparedPairwise) return new Set(labels.map(([key]) => key)).size !== labels.length;
  for (let index = 1; index < labels.length; index++) {
    for (let other = 0; other < index; other++) if (labels[index]![0] === labels[other]![0]) return true;
  }
  return false;
}

/** A character as a refusal names it: quoted, control characters escaped. */
const characterName = (code: number) => JSON.stringify(String.fromCharCode(code));

/**
 * A refused line as its message quotes it: its first line (a string may have run on), at most
 * `excerptLength` characters, never half a surrogate pair.
 */
function excerpt(text: string, start: number): string {
  const newline = text.indexOf("\n", start);
  let end = newline === -1 ? text.length : newline;
  if (end > start && text.charCodeAt(end - 1) === carriageReturn) end--;
  if (end - start <= excerptLength) return text.slice(start, end);
  let cut = start + excerptLength;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(start, cut)}…`;
}

class LineProtocolParser {
  private position = 0;
  private line = 1;
  /** Why the line being read is refused. */
  private problem = "";
  /** Whether the last name read held an escape. */
  private nameEscaped = false;
  // What earlier lines held, reused when a line repeats it: a body's lines mostly share their
  // measurement, field keys and tags, and a name read again would be a new string each time.
  private lastMeasurement = "";
  /** The field keys of `lastMeasurement` by their place in the line. */
  private knownFields: KnownField[] = [];
  /** Every field key read, by its measurement and key (`measurement\nkey`: names hold no newline). */
  private readonly fields = new Map<string, KnownField>();
  /** Tags by their place in the line, with the text they were read from. */
  private readonly knownTags: { text: string; label: Label }[] = [];
  private readonly end: number;
  private readonly result: LineProtocolResult = {
    series: [],
    refused: [],
    refusedLines: 0,
    stringFieldsSkipped: 0,
    points: 0,
    tooMany: false,
  };

  constructor(
    private readonly text: string,
    private readonly precision: LinePrecision,
    private readonly arrivalMs: number,
    private readonly maxPoints: number,
  ) {
    this.end = text.length;
  }

  read(): LineProtocolResult {
    while (this.position < this.end && !this.result.tooMany) {
      this.skipSpaces();
      if (this.takeLineEnd()) continue;
      const start = this.position;
      const origin = this.line;
      const read = this.text.charCodeAt(start) === hash ? this.comment() : this.point(origin);
      if (!read) this.refuse(start, origin);
    }
    return this.result;
  }

  /** The character at the reading position, or -1 at the end of the body. */
  private code(): number {
    return this.position < this.end ? this.text.charCodeAt(this.position) : -1;
  }

  private skipSpaces(): void {
    while (this.code() === space) this.position++;
  }

  /** Whether the reading position is at the end of a line (also the last). */
  private atLineEnd(): boolean {
    const code = this.code();
    return code === -1 || code === lineFeed || code === carriageReturn;
  }

  /** Moves past the end of a line (`\n`, `\r\n`, or a `\r` that ends the body) and says so; false anywhere else. */
  private takeLineEnd(): boolean {
    const code = this.code();
    if (code === -1) return true;
    if (code === lineFeed) {
      this.position++;
      this.line++;
      return true;
    }
    if (code !== carriageReturn) return false;
    if (this.position + 1 === this.end) {
      this.position++;
      return true;
    }
    if (this.text.charCodeAt(this.position + 1) !== lineFeed) return false;
    this.position += 2;
    this.line++;
    return true;
  }

  /** Records why the line being read is refused. */
  private fail(problem: string): false {
    this.problem = problem;
    return false;
  }

  /** A `#` line: skipped, unless it holds a control character other than a tab. */
  private comment(): boolean {
    const { text, end } = this;
    for (let index = this.position + 1; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code >= space && code !== del) continue;
      if (code === tab) continue;
      this.position = index;
      if ((code === lineFeed || code === carriageReturn) && this.takeLineEnd()) return true;
      return this.fail(`invalid character ${characterName(code)} in a comment`);
    }
    this.position = end;
    return true;
  }

  /** A measurement (`isKey` false), or a tag key, tag value or field key, unescaped; "" when there is none. */
  private name(isKey: boolean): string {
    const { text, end } = this;
    const start = this.position;
    let index = start;
    let escaped = false;
    while (index < end) {
      const code = text.charCodeAt(index);
      if (code === backslash) {
        const escapes = index + 1 < end && isEscapable(text.charCodeAt(index + 1), isKey);
        escaped ||= escapes;
        index += escapes ? 2 : 1;
      } else if (code <= space || code === comma || code === del || (isKey && code === equals)) {
        break;
      } else {
        index++;
      }
    }
    this.position = index;
    this.nameEscaped = escaped;
    return escaped ? unescaped(text, start, index, isKey) : text.slice(start, index);
  }

  /** Whether the text at the reading position is `known` followed by one of the two separators. */
  private repeats(known: string, separator: number, otherSeparator: number): boolean {
    if (!this.text.startsWith(known, this.position)) return false;
    const next = this.text.charCodeAt(this.position + known.length);
    return next === separator || next === otherSeparator;
  }

  /**
   * The measurement. One written without escapes is remembered: when the next line repeats it,
   * the same string serves, and so do its field keys and metrics.
   */
  private measurement(): string {
    if (this.lastMeasurement !== "" && this.repeats(this.lastMeasurement, comma, space)) {
      this.position += this.lastMeasurement.length;
      return this.lastMeasurement;
    }
    const measurement = this.name(false);
    const next = this.code();
    if (measurement !== "" && !this.nameEscaped && (next === comma || next === space)) {
      this.lastMeasurement = measurement;
      this.knownFields = [];
    }
    return measurement;
  }

  /**
   * The tag at the reading position (the `index`th of its line), the previous line's when it
   * repeats it; false with the problem.
   */
  private tag(index: number): Label | false {
    const known = this.knownTags[index];
    if (known !== undefined && this.repeats(known.text, comma, space)) {
      this.position += known.text.length;
      return known.label;
    }
    const start = this.position;
    const key = this.name(true);
    if (key === "") return this.fail(this.missing("tag key"));
    if (this.code() !== equals) return this.fail(`missing '=' after tag key "${key}"`);
    this.position++;
    const value = this.name(true);
    if (value === "") return this.fail(this.missing(`value of tag "${key}"`));
    const label: Label = [key, value];
    const next = this.code();
    // The text as sent, escapes and all, followed by the same separator, reads as the same tag.
    if (next === comma || next === space)
      this.knownTags[index] = { text: this.text.slice(start, this.position), label };
    return label;
  }

  /**
   * The field key at the reading position (the `index`th of its line) and its metric, the previous
   * line's when it repeats them; false with the problem.
   */
  private field(index: number, measurement: string): KnownField | false {
    const remembered = measurement === this.lastMeasurement;
    const known = remembered ? this.knownFields[index] : undefined;
    if (known !== undefined && this.repeats(known.key, equals, equals)) {
      this.position += known.key.length;
      return known;
    }
    const key = this.name(true);
    if (key === "") return this.fail(this.missing("field key"));
    if (this.code() !== equals) return this.fail(`missing '=' after field key "${key}"`);
    const name = `${measurement}\n${key}`;
    let field = this.fields.get(name);
    if (field === undefined) {
      field = { key, metric: key === "value" ? measurement : `${measurement}.${key}`, lines: {} };
      this.fields.set(name, field);
    }
    if (remembered && !this.nameEscaped) this.knownFields[index] = field;
    return field;
  }

  /** Why a name was expected and is missing here, or which character stands in its way. */
  private missing(what: string): string {
    const code = this.code();
    return this.atLineEnd() || code === space || code === comma || code === equals
      ? `missing ${what}`
      : `invalid character ${characterName(code)} in ${what}`;
  }

  /** Moves past a quoted string field value, whose newlines count as lines; false when it never ends. */
  private skipString(): boolean {
    const { text, end } = this;
    for (let index = this.position + 1; index < end; index++) {
      let code = text.charCodeAt(index);
      if (code === quote) {
        this.position = index + 1;
        return true;
      }
      if (code === backslash) code = text.charCodeAt(++index);
      if (code === lineFeed) this.line++;
    }
    this.position = end;
    return false;
  }

  /** Where the unquoted field value at the reading position ends. */
  private valueEnd(): number {
    const { text, end } = this;
    let index = this.position;
    for (; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code === comma || code === space || code === lineFeed || code === carriageReturn) break;
    }
    return index;
  }

  /** A point's line: measurement, tags, fields, timestamp; kept, or false with the problem. */
  private point(origin: number): boolean {
    const { text, result } = this;
    const measurement = this.measurement();
    if (measurement === "") {
      const code = this.code();
      return this.fail(
        code === comma
          ? "missing measurement"
          : `invalid character ${characterName(code)} at the start of the measurement`,
      );
    }

    let tags: Label[] | undefined;
    while (this.code() === comma) {
      this.position++;
      tags ??= [];
      const tag = this.tag(tags.length);
      if (tag === false) return false;
      tags.push(tag);
    }
    if (tags && tags.length > 1 && hasDuplicateKey(tags)) return this.fail("duplicate tag keys");
    if (this.code() !== space) {
      return this.fail(
        this.atLineEnd()
          ? "missing fields"
          : `invalid character ${characterName(this.code())} after the ${tags ? "tags" : "measurement"}`,
      );
    }
    this.skipSpaces();
    if (this.atLineEnd()) return this.fail("missing fields");

    const points: SeriesPoint[] = [];
    let strings = 0;
    for (let index = 0; ; index++) {
      const field = this.field(index, measurement);
      if (field === false) return false;
      const valueStart = ++this.position;
      if (this.code() === quote) {
        if (!this.skipString()) return this.fail(`unterminated string in field "${field.key}"`);
        strings++;
      } else {
        const valueEnd = this.valueEnd();
        if (valueEnd === valueStart) return this.fail(`missing value of field "${field.key}"`);
        const type = fieldType(text, valueStart, valueEnd);
        const value = fieldValue(text, valueStart, valueEnd, type);
        if (typeof value === "string" || type === "unknown value type")
          return this.fail(`${value} in field "${field.key}"`);
        this.position = valueEnd;
        field.lines[type] ??= [measurement, field.key, type];
        points.push({ metric: field.metric, value, timestamp: 0, line: field.lines[type] });
      }
      if (this.code() !== comma) break;
      this.position++;
    }
    if (!this.atLineEnd() && this.code() !== space) {
      return this.fail(`invalid character ${characterName(this.code())} after the fields`);
    }

    this.skipSpaces();
    let timestamp = this.arrivalMs;
    if (!this.takeLineEnd()) {
      const read = this.timestamp();
      if (read === false) return false;
      timestamp = read;
    }

    result.stringFieldsSkipped += strings;
    if (points.length === 0) return true;
    if (result.points + points.length > this.maxPoints) {
      result.tooMany = true;
      return true;
    }
    for (const point of points) point.timestamp = timestamp;
    result.points += points.length;
    result.series.push({ labels: tags ?? noLabels, origin, points });
    return true;
  }

  /** The timestamp ending the line, in milliseconds, and past the line's end; false with the problem. */
  private timestamp(): number | false {
    const { text, end } = this;
    const start = this.position;
    let index = start;
    for (; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code !== minus && (code < zero || code > nine)) break;
    }
    this.position = index;
    if (index === start || !(this.atLineEnd() || this.code() === space)) return this.fail("invalid timestamp");
    const milliseconds = timestampMilliseconds(text, start, index, this.precision);
    if (milliseconds === "invalid") return this.fail("invalid timestamp");
    if (milliseconds === "out of range") return this.fail("timestamp out of range");
    this.skipSpaces();
    if (!this.takeLineEnd()) return this.fail("unexpected text after the timestamp");
    return milliseconds;
  }

  /** Counts the line read from `start` as refused, and moves to the next line. */
  private refuse(start: number, origin: number): void {
    const { text, result } = this;
    const newline = text.indexOf("\n", this.position);
    this.position = newline === -1 ? this.end : newline + 1;
    if (newline !== -1) this.line++;
    result.refusedLines++;
    if (result.refused.length < refusalDetailLimit) {
      result.refused.push({ origin, message: `unable to parse '${excerpt(text, start)}': ${this.problem}` });
    }
  }
}
