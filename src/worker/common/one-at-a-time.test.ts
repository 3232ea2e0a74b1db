import { describe, expect, it } from "vitest";
import { OneAtATime } from "./one-at-a-time.ts";

describe("OneAtATime", () => {
  it("starts each piece of work once the previous one settled, failed ones included", async () => {
    const queue = new OneAtATime();
    const events: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        events.push(`${name} starts`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`${name} ends`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run(step("a")), queue.run(step("b", true)), queue.run(step("c"))]);
    expect(events).toEqual(["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });
});
