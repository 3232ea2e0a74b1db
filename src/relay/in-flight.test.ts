import { describe, expect, it } from "vitest";
import { InFlight } from "./in-flight.ts";

describe("InFlight", () => {
  it("is settled at once when nothing is under way", async () => {
    const inFlight = new InFlight();
    inFlight.begin();
    inFlight.end();

    expect(await inFlight.settled(10_000)).toBe(true);
  });

  it("settles when the last work under way ends, for every waiter", async () => {
    const inFlight = new InFlight();
    inFlight.begin();
    inFlight.begin();
    let settled = 0;
    const waiters = [inFlight.settled(10_000), inFlight.settled(10_000)].map((waiter) =>
      waiter.then((result) => {
        settled += 1;
        return result;
      }),
    );

    inFlight.end();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(0);
    inFlight.end();

    expect(await Promise.all(waiters)).toEqual([true, true]);
  });

  it("answers false once the timeout passes first, and true to later waiters once settled", async () => {
    const inFlight = new InFlight();
    inFlight.begin();

    expect(await inFlight.settled(20)).toBe(false);
    const later = inFlight.settled(10_000);
    inFlight.end();
    expect(await later).toBe(true);
  });
});
