import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BenchDatum } from "../line-protocol.ts";
import { formatLine, measuredDatum } from "../line-protocol.ts";
import { PostingTimes } from "../receivers/posting-times.ts";
import { LatencyRecorder } from "../receivers/receivers.ts";
import type { SystemUnderTest } from "../systems/system-under-test.ts";
import { postOnSchedule, steadyDeliveryRate } from "./delivery-case.ts";

/** A recorder that received data posted at `postedAt` (in one request), one at each of `arrivals`. */
function receivedAt(arrivals: readonly number[], postedAt = 0): LatencyRecorder {
  const postingTimes = new PostingTimes(Math.max(arrivals.length, 1));
  postingTimes.recordRequest(postedAt);
  const recorder = new LatencyRecorder("m", postingTimes);
  arrivals.forEach((arrival, sequence) => {
    recorder.record(formatLine("m", measuredDatum(sequence, postedAt)), arrival);
  });
  return recorder;
}

/** A recorder that received `count` data at each of `times`. */
const received = (times: readonly number[], count: number) =>
  receivedAt(times.flatMap((time) => Array.from({ length: count }, () => time)));

describe("steadyDeliveryRate", () => {
  it("is the posting rate when every batch arrives a steady latency after its data were posted", () => {
    // 10 s of posting at 1,000 data/s, delivered in batches of 500 every half second, 300-800 ms late.
    const arrivals = Array.from({ length: 20 }, (_, batch) => (batch + 1) * 500 + 300);
    const rate = steadyDeliveryRate([received(arrivals, 500)], { start: 0, seconds: 10 }, 550);
    expect(rate).toBe(1_000);
  });

  it("is the rate a falling-behind system delivers at, not the posting rate", () => {
    // Posting at 1,000 data/s for 10 s, delivering 500 every second: the backlog grows.
    const arrivals = Array.from({ length: 20 }, (_, batch) => (batch + 1) * 1_000);
    const rate = steadyDeliveryRate([received(arrivals, 500)], { start: 0, seconds: 10 }, 5_000);
    expect(rate).toBe(500);
  });

  it("averages over observers", () => {
    const arrivals = Array.from({ length: 10 }, (_, batch) => (batch + 1) * 1_000);
    const fast = received(arrivals, 1_000);
    const slow = received(arrivals, 500);
    expect(steadyDeliveryRate([fast, slow], { start: 0, seconds: 10 }, 500)).toBe(750);
  });

  it("stays within the arrivals of the buckets the window's edges cut of the rate counted from every arrival", () => {
    const start = 1_700_000_000_000;
    const bucketMs = 10;
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: start, max: start + 4_000 }), { maxLength: 200 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.nat({ max: 1_000 }),
        (perObserver, seconds, p50) => {
          const from = start + p50;
          const to = from + seconds * 1000;
          const inWindow = (arrival: number) => arrival >= from && arrival < to;
          const exact = perObserver.flat().filter(inWindow).length / perObserver.length / seconds;
          const edgeBuckets = [from, Math.ceil(to)].map((edge) => Math.floor(edge / bucketMs));
          const atEdges = perObserver.flat().filter((arrival) => edgeBuckets.includes(Math.floor(arrival / bucketMs)));
          const rate = steadyDeliveryRate(
            perObserver.map((arrivals) => receivedAt(arrivals, start)),
            { start, seconds },
            p50,
          );
          expect(Math.abs(rate - exact)).toBeLessThanOrEqual(atEdges.length / perObserver.length / seconds + 1e-6);
        },
      ),
    );
  });
});

/** A system that takes every post after a turn of the event loop, refusing those `refuses` picks. */
function fakeSystem(refuses: (request: number) => boolean) {
  const posts: BenchDatum[][] = [];
  const system: SystemUnderTest = {
    name: "fake",
    slug: "fake",
    protocols: ["HTTP"],
    observe: async () => async () => undefined,
    post: async (_metric, data) => {
      posts.push([...data]);
      const request = posts.length - 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return refuses(request) ? "HTTP 429" : undefined;
    },
    close: async () => undefined,
  };
  return { system, posts };
}

describe("postOnSchedule", () => {
  it("numbers data consecutively, keeps each request's posting time, and counts refused data", async () => {
    const { system, posts } = fakeSystem((request) => request % 2 === 1);
    const postingTimes = new PostingTimes(10);
    const outcome = await postOnSchedule(
      { system, protocol: "HTTP", observers: 1, rate: 1_000, dataPerRequest: 10, seconds: 0.05 },
      "m",
      postingTimes,
    );
    expect(posts.flat().map((datum) => datum.value)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    for (const datum of posts.flat()) expect(postingTimes.postedAt(datum.value)).toBe(datum.postedAt);
    expect(outcome.posted).toBe(30);
    expect(outcome.rejected).toBe(20);
    expect(outcome.rejections).toEqual(new Map([["HTTP 429", 20]]));
  });

  it("lets the event loop turn between requests when behind its schedule", async () => {
    const { system, posts } = fakeSystem(() => false);
    let postedWhenTurned: number | undefined;
    setImmediate(() => {
      postedWhenTurned = posts.length;
    });
    await postOnSchedule(
      { system, protocol: "HTTP", observers: 1, rate: 1e9, dataPerRequest: 1, seconds: 200 / 1e9 },
      "m",
      new PostingTimes(1),
    );
    expect(posts).toHaveLength(200);
    expect(postedWhenTurned).toBeLessThan(200);
  });
});
