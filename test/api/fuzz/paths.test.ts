import { beforeAll, describe, expect, it } from "vitest";
import type { DocumentedOperation } from "../support/documented-routes";
import { fuzzTimeoutMs, objectPrototypeKeys } from "../support/fuzz";
import { checkAll, fuzzedOperations, pathOf } from "../support/route-fuzzing";

/** Path segments, percent-encoded as they are sent, each with what it is. */
const adversarialSegments: [string, string][] = [
  ["an escape of a byte that is not UTF-8", "%FF"],
  ["U+FFFD, which raw bytes that are not UTF-8 become", "a%EF%BF%BDb"],
  ["__proto__", "__proto__"],
  ["5,000 characters", "x".repeat(5_000)],
];

const adversarialQuery = `?limit=1e309&enabled=%FF&since=${"9".repeat(400)}&x=${"y".repeat(5_000)}`;

let operations: DocumentedOperation[];

beforeAll(async () => {
  operations = await fuzzedOperations();
}, 60_000);

describe("every documented route", () => {
  it("is fuzzed, the agents' intake included", () => {
    const routes = operations.map((operation) => `${operation.method} ${operation.template}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        "PUT /resources",
        "POST /monitoring-rules",
        "POST /metrics/{id}/observers/{oid}/retry",
        "POST /write",
        "POST /api/v2/write",
        "POST /api/v1/write",
        "POST /otlp/v1/metrics",
        "GET /query",
        "GET /ping",
      ]),
    );
  });

  it(
    "answers odd query parameters without a server error",
    async () => {
      await checkAll(() =>
        operations.map((operation, turn) => ({
          what: "odd query parameters",
          method: operation.method,
          path: `${pathOf(operation, turn)}${adversarialQuery}`,
        })),
      );
    },
    fuzzTimeoutMs,
  );

  it.each(adversarialSegments)(
    "answers a path segment of %s in each parameter without a server error",
    async (what, segment) => {
      const prototypeBefore = objectPrototypeKeys();
      await checkAll(() =>
        operations.flatMap((operation, turn) =>
          operation.pathParameters.map((parameter) => ({
            what: `${what} for {${parameter}}`,
            method: operation.method,
            path: pathOf(operation, turn, { parameter, segment }),
          })),
        ),
      );
      expect(objectPrototypeKeys()).toEqual(prototypeBefore);
    },
    fuzzTimeoutMs,
  );
});
