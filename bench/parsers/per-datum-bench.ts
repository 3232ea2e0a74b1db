import { bench } from "vitest";

/*
 * A parser's micro-benchmark, reported per datum: vitest's `bench` times each run (one input read
 * whole), while a parser's cost is per datum. The time per datum is the run phase's elapsed time
 * over its data, from two clock readings, since workerd's clock moves in whole milliseconds and a
 * run of one input takes about that long.
 */

/** How long each benchmark runs, after vitest's warm-up: long enough for a millisecond clock. */
const runMs = 2_000;

/** The report line of a benchmark that read `runs` inputs of `dataPerInput` data in `elapsedMs`. */
export function perDatumLine(name: string, elapsedMs: number, runs: number, dataPerInput: number): string {
  const nanoseconds = (elapsedMs * 1e6) / (runs * dataPerInput);
  return `${name}: ${nanoseconds.toFixed(1)} ns per datum (${runs} runs of ${dataPerInput} data in ${elapsedMs.toFixed(0)} ms)`;
}

/**
 * Benchmarks `parse` over `inputs` in turn, each holding `dataPerInput` data, which `dataOf` counts
 * in a result: every input is read once first, and one that does not give all its data fails the
 * benchmark, which must time the parser's success and not an early refusal.
 */
export function benchPerDatum<Input, Result>(
  name: string,
  inputs: readonly Input[],
  dataPerInput: number,
  parse: (input: Input) => Result,
  dataOf: (result: Result) => number,
): void {
  for (const [index, input] of inputs.entries()) {
    const data = dataOf(parse(input));
    if (data !== dataPerInput) throw new Error(`${name}: input ${index} gave ${data} data, not ${dataPerInput}`);
  }
  let next = 0;
  let runs = 0;
  let started = 0;
  bench(
    name,
    () => {
      parse(inputs[next++ % inputs.length]!);
      runs += 1;
    },
    {
      time: runMs,
      setup: (_task, mode) => {
        runs = 0;
        if (mode === "run") started = performance.now();
      },
      teardown: (_task, mode) => {
        if (mode === "run") console.log(perDatumLine(name, performance.now() - started, runs, dataPerInput));
      },
    },
  );
}
