import { otlpExports, otlpPoints } from "../../../../bench/load/requests/agent-batches";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { readMetricsProtobuf } from "./metrics-protobuf";

/* The OTLP protobuf reader on the OpenTelemetry SDK's exports of 1,000 points. */

const maxPoints = 1_000_000;

benchPerDatum(
  "OTLP protobuf, SDK exports",
  (await otlpExports(8)).map(({ protobuf }) => protobuf),
  otlpPoints,
  (body) => readMetricsProtobuf(body, Date.now(), maxPoints),
  (result) => result.points,
);
