import { otlpExports, otlpPoints } from "../../../../bench/load/requests/agent-batches";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { readMetricsJson } from "./metrics-json";

/* The OTLP JSON reader on the OpenTelemetry SDK's exports of 1,000 points, as JSON.parse gives them. */

const maxPoints = 1_000_000;

benchPerDatum(
  "OTLP JSON, SDK exports",
  (await otlpExports(8)).map(({ json }) => json),
  otlpPoints,
  (body) => readMetricsJson(body, Date.now(), maxPoints),
  (result) => result.points,
);
