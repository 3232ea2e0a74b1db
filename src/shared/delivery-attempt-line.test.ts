import { expect, it } from "vitest";
import { type DeliveryAttemptLine, readDeliveryAttemptLine } from "./delivery-attempt-line.ts";

const attempt: DeliveryAttemptLine = {
  event: "delivery.attempt",
  metric: "cpu",
  protocol: "HTTP",
  format: "TOWER/JSON",
  observerId: "o1",
  ok: false,
  error: "HTTP 500 from the observer",
  httpStatus: 500,
  data: 3,
  attempt: 2,
};

it("reads back the line of a delivery attempt", () => {
  expect(readDeliveryAttemptLine(JSON.stringify(attempt))).toEqual(attempt);
});

it.each([
  'observers of "cpu" not read: boom',
  '{"event":"observer.disabled","metric":"cpu"}',
  '{"event":"delivery.attempt", cut short',
  "",
])("takes no other line for one: %o", (line) => {
  expect(readDeliveryAttemptLine(line)).toBeUndefined();
});
