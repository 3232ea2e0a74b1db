/*
 * The `value` parameter of an OutputMetric action: what each output datum carries, computed from
 * the window's aggregates of METRIC, e.g. `SUM(METRIC)/COUNT(METRIC)`.
 *
 *   expression := product (('+' | '-') product)*
 *   product    := unary (('*' | '/') unary)*          (× and ÷ are synonyms of * and /)
 *   unary      := '-' unary | primary
 *   primary    := number | 'METRIC' | call | '(' expression ')'
 *   call       := ('AVG' | 'SUM' | 'COUNT' | 'MIN' | 'MAX') '(' 'METRIC' ')'
 *               | 'PERCENTILE' '(' 'METRIC' ',' number ')'     (the number from 0 to 100)
 *
 * Names are upper case, as in the original. Arithmetic is IEEE: dividing by zero gives ±Infinity
 * or NaN rather than a failure, like every other NaN a window can produce.
 */
import { type Parsed, ParseProblem, parsing } from "./parsed";
import { Cursor, tokenize } from "./tokens";

export type AggregateCall = { fn: "AVG" | "SUM" | "COUNT" | "MIN" | "MAX" } | { fn: "PERCENTILE"; percentile: number };

export interface ValueExpression {
  /** Distinct aggregate calls in the expression (deduplicated by fn+percentile). */
  readonly aggregates: readonly AggregateCall[];
  /** METRIC appears outside any aggregate call. */
  readonly usesBareMetric: boolean;
  /** `aggregate` is called with the very objects of `aggregates`, so it may look them up by identity. */
  evaluate(metric: number, aggregate: (call: AggregateCall) => number): number;
}

type Evaluate = ValueExpression["evaluate"];

const simpleFunctions = ["AVG", "SUM", "COUNT", "MIN", "MAX"] as const;
const vocabulary = "the value may use METRIC, numbers and AVG, SUM, COUNT, MIN, MAX, PERCENTILE(METRIC, p)";

const operations: Record<string, (left: number, right: number) => number> = {
  "+": (left, right) => left + right,
  "-": (left, right) => left - right,
  "*": (left, right) => left * right,
  "/": (left, right) => left / right,
};

export function parseValueExpression(text: string): Parsed<ValueExpression> {
  return parsing(() => new ValueParser(text).parse());
}

/** One parse: the cursor, and what the expression turns out to need from the window. */
class ValueParser {
  private readonly cursor: Cursor;
  private readonly aggregates = new Map<string, AggregateCall>();
  private usesBareMetric = false;

  constructor(text: string) {
    this.cursor = new Cursor(tokenize(text), "value");
  }

  parse(): ValueExpression {
    const { cursor } = this;
    if (cursor.current.kind === "end") {
      cursor.fail("it is empty; expected an expression such as METRIC or SUM(METRIC)/COUNT(METRIC)", 1);
    }
    const evaluate = this.expression();
    if (cursor.current.kind !== "end") cursor.expected("an operator (+, -, *, /) or the end of the value");
    return { aggregates: [...this.aggregates.values()], usesBareMetric: this.usesBareMetric, evaluate };
  }

  private expression(): Evaluate {
    return this.operands(["+", "-"], () => this.product());
  }

  private product(): Evaluate {
    return this.operands(["*", "/"], () => this.unary());
  }

  /**
   * Operands joined by operators of one precedence, from left to right. They are evaluated in one
   * loop: a closure per operator, each calling the one before, would nest as deep as the expression
   * is long, and a long one would overflow the stack at every window.
   */
  private operands(symbols: string[], operand: () => Evaluate): Evaluate {
    const first = operand();
    const rest: { operation: (left: number, right: number) => number; right: Evaluate }[] = [];
    while (this.cursor.isSymbol(...symbols)) {
      const operation = operations[this.cursor.advance().symbol]!;
      rest.push({ operation, right: operand() });
    }
    if (rest.length === 0) return first;
    return (metric, aggregate) => {
      let value = first(metric, aggregate);
      for (const { operation, right } of rest) value = operation(value, right(metric, aggregate));
      return value;
    };
  }

  private unary(): Evaluate {
    if (!this.cursor.isSymbol("-")) return this.primary();
    const negated = this.cursor.nested(() => this.unary());
    return (metric, aggregate) => -negated(metric, aggregate);
  }

  private primary(): Evaluate {
    const { cursor } = this;
    const token = cursor.current;
    if (token.kind === "number") {
      const value = Number(cursor.advance().text);
      return () => value;
    }
    if (token.kind === "name") return this.name();
    if (cursor.isSymbol("(")) {
      const inner = cursor.nested(() => this.expression());
      if (!cursor.isSymbol(")")) cursor.expected('an operator (+, -, *, /) or ")"');
      cursor.advance();
      return inner;
    }
    return cursor.expected('a number, METRIC, a function, "-" or "("');
  }

  private name(): Evaluate {
    const { cursor } = this;
    const token = cursor.advance();
    if (token.text === "METRIC") {
      this.usesBareMetric = true;
      return (metric) => metric;
    }
    const fn = token.text;
    if (fn !== "PERCENTILE" && !isSimpleFunction(fn)) {
      const what = cursor.isSymbol("(") ? "function" : "name";
      throw new ParseProblem(token.position, `Unknown ${what} "${fn}" at position ${token.position}; ${vocabulary}.`);
    }
    if (!cursor.isSymbol("(")) cursor.expected(`"(" after ${fn}`);
    cursor.advance();
    if (cursor.current.kind !== "name" || cursor.current.text !== "METRIC") {
      cursor.fail(`the argument of ${fn} must be METRIC, found ${cursor.describe(cursor.current)}`);
    }
    cursor.advance();
    const call = this.register(fn === "PERCENTILE" ? { fn, percentile: this.percentile() } : { fn });
    if (!cursor.isSymbol(")")) cursor.expected(`")" after ${fn}(METRIC${fn === "PERCENTILE" ? ", p" : ""}`);
    cursor.advance();
    return (_metric, aggregate) => aggregate(call);
  }

  /** The `, p` of PERCENTILE(METRIC, p). */
  private percentile(): number {
    const { cursor } = this;
    if (!cursor.isSymbol(",")) cursor.expected('"," and the percentile after PERCENTILE(METRIC');
    cursor.advance();
    const start = cursor.current;
    const negative = cursor.isSymbol("-");
    if (negative) cursor.advance();
    if (cursor.current.kind !== "number") cursor.expected("the percentile, a number from 0 to 100");
    const percentile = Number(cursor.advance().text) * (negative ? -1 : 1);
    if (percentile < 0 || percentile > 100) {
      throw new ParseProblem(
        start.position,
        `The percentile at position ${start.position} must be from 0 to 100, found ${percentile}.`,
      );
    }
    return percentile;
  }

  /** The one object that stands for this call, however often the expression repeats it. */
  private register(call: AggregateCall): AggregateCall {
    const key = call.fn === "PERCENTILE" ? `${call.fn}:${call.percentile}` : call.fn;
    const known = this.aggregates.get(key);
    if (known) return known;
    this.aggregates.set(key, call);
    return call;
  }
}

function isSimpleFunction(name: string): name is (typeof simpleFunctions)[number] {
  return (simpleFunctions as readonly string[]).includes(name);
}
