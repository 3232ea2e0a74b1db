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
const day = 24 * hour;

/** The calendar units of steps, in local time: a day, a month or a year has no fixed length. */
type Unit = "millisecond" | "day" | "month" | "year";

interface TimeStep {
  unit: Unit;
  /** How many units one step is. */
  count: number;
  /** About how long a step is, to choose one for a span. */
  length: number;
}

const fixed = (length: number): TimeStep => ({ unit: "millisecond", count: length, length });
const calendar = (unit: Exclude<Unit, "millisecond">, count: number): TimeStep => ({
  unit,
  count,
  length: count * (unit === "day" ? day : unit === "month" ? 30.44 * day : 365.25 * day),
});

const timeSteps: TimeStep[] = [
  ...[1, 2, 5, 10, 15, 30].map((count) => fixed(count * second)),
  ...[1, 2, 5, 10, 15, 30].map((count) => fixed(count * minute)),
  ...[1, 2, 3, 6, 12].map((count) => fixed(count * hour)),
  ...[1, 2, 7, 14].map((count) => calendar("day", count)),
  ...[1, 2, 3, 6].map((count) => calendar("month", count)),
  // Up to the whole range of dates: about 275,000 years either side of 1970.
  ...[0, 1, 2, 3, 4, 5].flatMap((power) => [1, 2, 5].map((count) => calendar("year", count * 10 ** power))),
];

/** Whether `time` is within the range of dates (a datum's timestamp may be beyond it). */
const isDate = (time: number) => !Number.isNaN(new Date(time).getTime());
const localDay = (time: number) => new Date(time).toDateString();
const localYear = (time: number) => new Date(time).getFullYear();

const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false });
const clockWithSeconds = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
const dayMonth = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });
const dayMonthYear = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
const monthYear = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric" });

/**
 * How the ticks of `step` read over [start, end]: the time of day under a day, with the date unless
 * the whole span is today (so that data of another day, or of 1970, never pass for today's); the
 * date from a day up; the year with the date unless the whole span is in this year; the month and
 * year, or the year alone.
 */
function labelsOf(step: TimeStep, start: number, end: number, now: number): (time: number) => string {
  const today = localDay(now);
  const allToday = localDay(start) === today && localDay(end) === today;
  const thisYear = localYear(now);
  const date = localYear(start) === thisYear && localYear(end) === thisYear ? dayMonth : dayMonthYear;
  switch (step.unit) {
    case "millisecond": {
      const time = step.length < minute ? clockWithSeconds : clock;
      return allToday ? (tick) => time.format(tick) : (tick) => `${date.format(tick)} ${time.format(tick)}`;
    }
    case "day":
      return (tick) => date.format(tick);
    case "month":
      return (tick) => monthYear.format(tick);
    case "year":
      return (tick) => String(localYear(tick));
  }
}

/** The first step-aligned moment at or after `time`, in local time. */
function firstTick(step: TimeStep, time: number): number {
  const date = new Date(time);
  switch (step.unit) {
    case "millisecond": {
      // Aligned on the local clock: 6-hour ticks fall at 00:00, 06:00… wherever the page is read.
      const offset = -date.getTimezoneOffset() * minute;
      return Math.ceil((time + offset) / step.length) * step.length - offset;
    }
    case "day":
      date.setHours(0, 0, 0, 0);
      if (step.count === 7) date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
      break;
    case "month":
      date.setHours(0, 0, 0, 0);
      date.setDate(1);
      date.setMonth(date.getMonth() - (date.getMonth() % step.count));
      break;
    case "year":
      date.setHours(0, 0, 0, 0);
      date.setMonth(0, 1);
      date.setFullYear(date.getFullYear() - (date.getFullYear() % step.count));
      break;
  }
  while (date.getTime() < time) advance(date, step);
  return date.getTime();
}

function advance(date: Date, step: TimeStep): void {
  switch (step.unit) {
    case "millisecond":
      date.setTime(date.getTime() + step.length);
      break;
    case "day":
      date.setDate(date.getDate() + step.count);
      break;
    case "month":
      date.setMonth(date.getMonth() + step.count);
      break;
    case "year":
      date.setFullYear(date.getFullYear() + step.count);
      break;
  }
}

export interface TimeAxis {
  /** Round moments within [start, end], in time order. */
  ticks: number[];
  label(time: number): string;
}

/** About how wide a label of `characters` is drawn, with the room kept between two labels. */
const labelWidth = (characters: number) => characters * 7 + 24;

/**
 * Ticks at round times within [start, end] for an axis `width` pixels wide, whatever the span:
 * seconds to centuries, as many as their labels leave room for (at least two), each at least one
 * step apart; their labels read as seen on the day of `now`.
 */
export function timeAxis(start: number, end: number, width: number, now = Date.now()): TimeAxis {
  if (!isDate(start) || !isDate(end)) return { ticks: [], label: String };
  const span = end - start;
  const fits = (step: TimeStep) => {
    const label = labelsOf(step, start, end, now);
    const room = Math.max(2, Math.floor(width / labelWidth(label(end).length)));
    return span / step.length <= room;
  };
  const step = timeSteps.find(fits) ?? timeSteps.at(-1)!;
  const ticks: number[] = [];
  const date = new Date(firstTick(step, start));
  for (; date.getTime() <= end; advance(date, step)) ticks.push(date.getTime());
  return { ticks, label: labelsOf(step, start, end, now) };
}
