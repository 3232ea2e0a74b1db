/** Axis ticks at round numbers and round times, for the hand-drawn charts. */

/** About `count` ticks at multiples of 1, 2 or 5 × 10ⁿ covering [min, max]; min < max. */
export function valueTicks(min: number, max: number, count: number): number[] {
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalised = raw / magnitude;
  const step = (normalised < 1.5 ? 1 : normalised < 3 ? 2 : normalised < 7 ? 5 : 10) * magnitude;
  const first = Math.floor(min / step);
  const last = Math.ceil(max / step);
  const ticks: number[] = [];
  // Multiplying each index, rather than adding steps, keeps rounding errors from piling up.
  for (let index = first; index <= last; index += 1) ticks.push(index * step);
  return ticks;
}

const second = 1_000;
const minute = 60 * second;
const hour = 60 * minute;
const timeSteps = [
  ...[1, 2, 5, 10, 15, 30].map((count) => count * second),
  ...[1, 2, 5, 10, 15, 30].map((count) => count * minute),
  ...[1, 2, 3, 6, 12, 24].map((count) => count * hour),
];

/** Ticks at round times within [start, end], at most `count` of them (at least one step apart). */
export function timeTicks(start: number, end: number, count: number): number[] {
  const step = timeSteps.find((candidate) => (end - start) / candidate <= count) ?? timeSteps.at(-1)!;
  const ticks: number[] = [];
  for (let tick = Math.ceil(start / step) * step; tick <= end; tick += step) ticks.push(tick);
  return ticks;
}
