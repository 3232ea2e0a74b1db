/** How times, counts and values read on the page. */

const clock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });
const counts = new Intl.NumberFormat("en");
const small = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
const large = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
const rate = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });

/** hh:mm:ss in local time. */
export function formatClock(epochMs: number): string {
  return clock.format(epochMs);
}

const instant = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** A moment in full, its date included, in local time; a timestamp beyond the range of dates as its number. */
export function formatInstant(epochMs: number): string {
  return Number.isNaN(new Date(epochMs).getTime()) ? `${epochMs} ms` : instant.format(epochMs);
}

/** A moment: its time of day when it is today, with the day before it otherwise; a dash for none. */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return "—";
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return iso;
  const today = new Date();
  const sameDay = moment.toDateString() === today.toDateString();
  return sameDay ? formatClock(moment.getTime()) : `${day.format(moment)}, ${formatClock(moment.getTime())}`;
}

export function formatCount(count: number): string {
  return counts.format(count);
}

/** A datum's value: four significant digits, whole numbers above a thousand. */
export function formatValue(value: number | string): string {
  if (typeof value === "string") return value;
  return Math.abs(value) >= 1000 ? large.format(value) : small.format(value);
}

export function formatRate(perSecond: number): string {
  return `${rate.format(perSecond)} data/s`;
}

/** "1 datum", "3 data": the service's own words. */
export function data(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "datum" : "data"}`;
}

/** Where an observer receives its data. */
export function observerTarget(observer: {
  protocol: string;
  callbackUrl?: string;
  observerHost?: string;
  observerPort?: number;
}): string {
  if (observer.callbackUrl) return observer.callbackUrl;
  const host = observer.observerHost?.includes(":") ? `[${observer.observerHost}]` : observer.observerHost;
  return `${observer.protocol.toLowerCase()}://${host}:${observer.observerPort}`;
}
