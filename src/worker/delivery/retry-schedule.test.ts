import { afterEach, describe, expect, it, vi } from "vitest";
import { configSchema } from "../config";
import { retryAfterSeconds, retryDelayMs, scheduleSpanMs } from "./retry-schedule";

const schedule = [10, 60, 300];
const fixed = (value: number) => () => value;

describe("retryDelayMs", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    [0, 0, 8_000],
    [0, 0.5, 10_000],
    [0, 1, 12_000],
    [1, 0, 48_000],
    [1, 0.5, 60_000],
    [1, 1, 72_000],
    [2, 0.5, 300_000],
  ])("waits step %i of the schedule, jittered by ±20 %% (random %f): %i ms", (step, random, delay) => {
    expect(retryDelayMs(schedule, step, { random: fixed(random) })).toBe(delay);
  });

  it.each([
    [3, 0, 240_000],
    [3, 0.5, 300_000],
    [50, 1, 360_000],
  ])("repeats the last step once the schedule has run out (step %i, random %f)", (step, random, delay) => {
    expect(retryDelayMs(schedule, step, { random: fixed(random) })).toBe(delay);
  });

  it("jitters with Math.random unless told otherwise", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    expect(retryDelayMs(schedule, 1)).toBe(54_000);
  });

  it("waits as long as Retry-After asks when that is longer than the step", () => {
    expect(retryDelayMs(schedule, 0, { retryAfterSeconds: 45, random: fixed(1) })).toBe(45_000);
    expect(retryDelayMs(schedule, 1, { retryAfterSeconds: 100.5, random: fixed(0) })).toBe(100_500);
  });

  it("keeps the jittered step when Retry-After asks for less", () => {
    expect(retryDelayMs(schedule, 1, { retryAfterSeconds: 20, random: fixed(0) })).toBe(48_000);
    expect(retryDelayMs(schedule, 0, { retryAfterSeconds: 0, random: fixed(0.5) })).toBe(10_000);
  });

  it("waits at most the largest step, whatever Retry-After asks", () => {
    expect(retryDelayMs(schedule, 0, { retryAfterSeconds: 86_400, random: fixed(0) })).toBe(300_000);
    expect(retryDelayMs([600, 5], 1, { retryAfterSeconds: 3_600, random: fixed(0.5) })).toBe(600_000);
  });
});

describe("scheduleSpanMs", () => {
  it("is the sum of the steps", () => {
    expect(scheduleSpanMs(schedule)).toBe(370_000);
    expect(scheduleSpanMs([0])).toBe(0);
  });

  it("tries data for 114,155 seconds with the default schedule", () => {
    expect(scheduleSpanMs(configSchema.parse({}).RETRY_SCHEDULE)).toBe(114_155_000);
  });
});

describe("retryAfterSeconds", () => {
  const now = Date.UTC(2015, 9, 21, 7, 27, 0);

  it("reads delay-seconds", () => {
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds(" 7 ", now)).toBe(7);
    expect(retryAfterSeconds("0", now)).toBe(0);
  });

  it("reads an HTTP date as the seconds until then", () => {
    expect(retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT", now)).toBe(60);
    expect(retryAfterSeconds("Wed, 21 Oct 2015 07:27:00 GMT", now + 500)).toBe(0);
  });

  it("reads an HTTP date in the past as no wait", () => {
    expect(retryAfterSeconds("Wed, 21 Oct 2015 07:00:00 GMT", now)).toBe(0);
  });

  it("reads an HTTP date only in its IMF-fixdate form", () => {
    expect(retryAfterSeconds("  Wed, 21 Oct 2015 07:29:30 GMT ", now)).toBe(150);
    expect(retryAfterSeconds("Thu, 22 Oct 2015 07:27:00 GMT", now)).toBe(86_400);
  });

  it("reads nothing from a missing or unreadable header", () => {
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds("soon", now)).toBeUndefined();
    expect(retryAfterSeconds("", now)).toBeUndefined();
  });

  it.each([
    ["a fraction", "1.5"],
    ["a negative number", "-5"],
    ["a number with a sign", "+5"],
    ["an exponent", "1e3"],
    ["a word Date.parse reads", "Tomorrow"],
    ["an ISO 8601 date and time", "2015-10-21T07:28:00Z"],
    ["an ISO 8601 date", "2015-10-22"],
    ["the obsolete RFC 850 form", "Wednesday, 21-Oct-15 07:28:00 GMT"],
    ["the asctime form", "Wed Oct 21 07:28:00 2015"],
    ["another time zone", "Wed, 21 Oct 2015 07:28:00 UTC"],
    ["a date with trailing text", "Wed, 21 Oct 2015 07:28:00 GMT, soon"],
    ["a day that does not exist", "Sat, 32 Oct 2015 07:28:00 GMT"],
    ["an hour that does not exist", "Wed, 21 Oct 2015 25:28:00 GMT"],
  ])("reads nothing from %s (%s)", (_, header) => {
    expect(retryAfterSeconds(header, now)).toBeUndefined();
  });
});
