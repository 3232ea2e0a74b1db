import { describe, expect, it } from "vitest";
import { PostingTimes } from "./posting-times.ts";

describe("PostingTimes", () => {
  it("gives every datum of a request the request's time, numbering data consecutively", () => {
    const times = new PostingTimes(3);
    expect(times.recordRequest(1_000)).toBe(0);
    expect(times.recordRequest(1_010)).toBe(3);
    expect(times.data).toBe(6);
    expect([0, 1, 2, 3, 4, 5].map((sequence) => times.postedAt(sequence))).toEqual([
      1_000, 1_000, 1_000, 1_010, 1_010, 1_010,
    ]);
  });

  it("knows no datum it was not told of: beyond the last request, negative or fractional", () => {
    const times = new PostingTimes(2);
    times.recordRequest(1_000);
    expect([2, -1, 0.5, Number.NaN].map((sequence) => times.postedAt(sequence))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("grows past its first allocation", () => {
    const times = new PostingTimes(1);
    for (let request = 0; request < 5_000; request++) times.recordRequest(request);
    expect(times.postedAt(4_999)).toBe(4_999);
    expect(times.postedAt(1_024)).toBe(1_024);
  });
});
