import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMetricsProtobuf } from "../../../intake/otlp/metrics-protobuf";
import { encodeRequest } from "../../../intake/otlp/testing/otlp-protobuf-encoder";
import { seriesLabels } from "../../../vocabulary/datum";
import type { MetricRun } from "../../../vocabulary/delivery";
import { otlpMetricsRequest } from "./otlp-metrics-request";
import { otlpProtobufRequest } from "./otlp-protobuf-writer";
import {
  arrivalMs,
  expectedPoints,
  jsonFormOf,
  labelChangesArbitrary,
  lastMillisecond,
  past2To53Nanoseconds,
  pointsRead,
  runsArbitrary,
} from "./testing/otlp-output-cases";

const read = (body: Uint8Array) => readMetricsProtobuf(body, arrivalMs, 100_000);

/** Data of every kind: labels from a resource attribute and from points, none, non-finite values, times at the bounds. */
const runs: MetricRun[] = [
  [
    "cpu.usage",
    [
      [
        "a",
        0,
        0.5,
        "i-1,cpu=0",
        seriesLabels(
          [
            ["cpu", "0"],
            ["service.instance.id", "i-1"],
          ],
          undefined,
          "service.instance.id",
        ),
      ],
      [
        "b",
        past2To53Nanoseconds,
        "NaN",
        "vm1",
        seriesLabels([
          ["host.name", "vm1"],
          ["zone", "€ü"],
        ]),
      ],
      ["c", lastMillisecond, "INF", "frontend1"],
      ["d", 1_700_000_000_001, "-INF", "frontend1"],
      ["e", 1, -0, "frontend1"],
    ],
  ],
  ["mem", [["f", 1_700_000_000_000, 1e300, "x"]]],
];

describe("otlpProtobufRequest", () => {
  it("writes the bytes the independent test encoder writes of the same request", () => {
    const request = otlpMetricsRequest(runs);
    expect(otlpProtobufRequest(request)).toEqual(encodeRequest(jsonFormOf(request)));
  });

  it("is read back by the intake's reader with the same names, attributes, resource, values and times", () => {
    const result = read(otlpProtobufRequest(otlpMetricsRequest(runs)));
    expect(result.rejectedDataPoints).toBe(0);
    expect(pointsRead(result)).toEqual(expectedPoints(runs, undefined));
  });

  it("writes an empty request as no bytes", () => {
    expect(otlpProtobufRequest({ resourceMetrics: [] })).toEqual(new Uint8Array(0));
  });

  it("writes any payload as the test encoder does, and the reader reads back every datum", () => {
    fc.assert(
      fc.property(runsArbitrary, labelChangesArbitrary, (payload, changes) => {
        const request = otlpMetricsRequest(payload, changes);
        const body = otlpProtobufRequest(request);
        expect(body).toEqual(encodeRequest(jsonFormOf(request)));
        expect(pointsRead(read(body))).toEqual(expectedPoints(payload, changes));
      }),
    );
  });
});
