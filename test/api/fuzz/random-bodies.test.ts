import fc from "fast-check";
import { describe, it } from "vitest";
import { fuzzTimeoutMs } from "../support/fuzz";
import { check, operationsTakingABody, pathOf } from "../support/route-fuzzing";

const writes = operationsTakingABody();

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)),
  fc.string({ unit: "binary", maxLength: 2_000 }),
  fc.uint8Array({ maxLength: 2_000 }),
  fc
    .tuple(fc.constantFrom("[", '{"a":', "<a>", "<monitoringRule>"), fc.integer({ min: 60, max: 50_000 }))
    .map(([opening, times]) => opening.repeat(times)),
);

const contentType = fc.constantFrom(
  "application/json",
  "application/xml",
  "text/plain",
  "application/x-www-form-urlencoded",
  undefined,
);

describe("every documented route that takes a body", () => {
  it(
    "answers random bodies of any content type without a server error, and a refused one changes nothing",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), body, contentType, async (pick, text, type) => {
          const operation = writes()[pick % writes().length]!;
          await check({
            what: "a random body",
            method: operation.method,
            path: pathOf(operation, pick),
            init: { body: text, headers: type === undefined ? {} : { "content-type": type } },
          });
        }),
        { numRuns: 40, interruptAfterTimeLimit: 15_000 },
      );
    },
    fuzzTimeoutMs,
  );
});
