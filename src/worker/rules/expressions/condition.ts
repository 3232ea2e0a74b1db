/*
 * The original's condition language (its ANTLR grammar, Condition.g4):
 *
 *   condition := term ('||' term)*
 *   term      := factor ('&&' factor)*
 *   factor    := atom | '!' factor | '(' condition ')'
 *   atom      := operand op operand
 *   operand   := 'METRIC' | number
 *   op        := '>=' | '<=' | '<>' | '=' | '>' | '<'
 *
 * Numbers are integers or decimals (`2500`, `2500.0`); a leading '-' is accepted, which the
 * original was not. Comparisons follow IEEE: with a NaN metric every one is false except `<>`.
 */
import { type Parsed, parsing } from "./parsed";
import { Cursor, tokenize } from "./tokens";

export type { Parsed } from "./parsed";

export interface Condition {
  holds(metric: number): boolean;
}

type Test = (metric: number) => boolean;
type Operand = (metric: number) => number;

const comparisons: Record<string, (left: number, right: number) => boolean> = {
  ">=": (left, right) => left >= right,
  "<=": (left, right) => left <= right,
  "<>": (left, right) => left !== right,
  "=": (left, right) => left === right,
  ">": (left, right) => left > right,
  "<": (left, right) => left < right,
};

export function parseCondition(text: string): Parsed<Condition> {
  return parsing(() => {
    const cursor = new Cursor(tokenize(text), "condition");
    if (cursor.current.kind === "end") cursor.fail("it is empty; expected a comparison such as METRIC > 2500", 1);
    const test = condition(cursor);
    if (cursor.current.kind !== "end") cursor.expected('"&&", "||" or the end of the condition');
    return { holds: test };
  });
}

function condition(cursor: Cursor): Test {
  const terms = [term(cursor)];
  while (cursor.isSymbol("||")) {
    cursor.advance();
    terms.push(term(cursor));
  }
  return terms.length === 1 ? terms[0]! : (metric) => terms.some((test) => test(metric));
}

function term(cursor: Cursor): Test {
  const factors = [factor(cursor)];
  while (cursor.isSymbol("&&")) {
    cursor.advance();
    factors.push(factor(cursor));
  }
  return factors.length === 1 ? factors[0]! : (metric) => factors.every((test) => test(metric));
}

function factor(cursor: Cursor): Test {
  if (cursor.isSymbol("!")) {
    const negated = cursor.nested(() => factor(cursor));
    return (metric) => !negated(metric);
  }
  if (cursor.isSymbol("(")) {
    const inner = cursor.nested(() => condition(cursor));
    if (!cursor.isSymbol(")")) cursor.expected('"&&", "||" or ")"');
    cursor.advance();
    return inner;
  }
  return atom(cursor);
}

function atom(cursor: Cursor): Test {
  const left = operand(cursor, 'a number, METRIC, "!" or "("');
  const token = cursor.current;
  const compare = token.kind === "symbol" ? comparisons[token.symbol] : undefined;
  if (compare === undefined) cursor.expected("a comparison (>, >=, <, <=, = or <>)");
  cursor.advance();
  const right = operand(cursor, "a number or METRIC");
  return (metric) => compare(left(metric), right(metric));
}

function operand(cursor: Cursor, expected: string): Operand {
  const token = cursor.current;
  if (token.kind === "name" && token.text === "METRIC") {
    cursor.advance();
    return (metric) => metric;
  }
  if (token.kind === "name") {
    cursor.fail(`unknown name "${token.text}"; a condition compares METRIC with numbers`);
  }
  const negative = cursor.isSymbol("-");
  if (negative) cursor.advance();
  if (cursor.current.kind !== "number") cursor.expected(negative ? 'a number after "-"' : expected);
  const value = Number(cursor.advance().text) * (negative ? -1 : 1);
  return () => value;
}
