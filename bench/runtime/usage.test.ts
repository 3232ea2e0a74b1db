import { expect, it } from "vitest";
import { consumerDone, countsBetween, type Usage } from "./usage.ts";

const counts = (changes: Partial<Usage>): Usage => ({
  since: "2026-01-01T00:00:00.000Z",
  dataAccepted: 10_000,
  durableObjectRequests: 20,
  durableObjectRequestsByBinding: {} as Usage["durableObjectRequestsByBinding"],
  queueMessagesWritten: 10,
  queueMessagesRead: 10,
  outboundRequests: 0,
  backlogDataWritten: 0,
  intake: {} as Usage["intake"],
  ...changes,
});

it("finds the consumer done once every message written was read and nothing moved", () => {
  expect(consumerDone(counts({}), counts({}))).toBe(true);
  expect(consumerDone(counts({}), counts({ queueMessagesRead: 9 }))).toBe(false);
  // A retried message is read twice.
  expect(consumerDone(counts({ queueMessagesRead: 11 }), counts({ queueMessagesRead: 11 }))).toBe(true);
  expect(consumerDone(counts({}), counts({ durableObjectRequests: 21 }))).toBe(false);
  expect(consumerDone(counts({}), counts({ dataAccepted: 10_001 }))).toBe(false);
});

it("counts what changed between two readings", () => {
  const after = counts({ queueMessagesWritten: 30, queueMessagesRead: 25, durableObjectRequests: 22 });
  expect(
    countsBetween(counts({}), after, ["queueMessagesWritten", "queueMessagesRead", "durableObjectRequests"]),
  ).toEqual({
    queueMessagesWritten: 20,
    queueMessagesRead: 15,
    durableObjectRequests: 2,
  });
});
