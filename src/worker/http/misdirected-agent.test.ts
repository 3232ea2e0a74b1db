import { describe, expect, it } from "vitest";
import { misdirectedAgentHint } from "./misdirected-agent";

describe("misdirectedAgentHint", () => {
  it.each(["/v1/metrics", "/metrics", "/v1/metrics/"])("points a POST to %s at the OTLP route", (path) => {
    expect(misdirectedAgentHint("POST", path, `https://tower.example${path}`)).toBe(
      "OTLP metrics go to /otlp/v1/metrics: set OTEL_EXPORTER_OTLP_ENDPOINT=https://tower.example/otlp " +
        "(or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=https://tower.example/otlp/v1/metrics).",
    );
  });

  it.each([
    ["GET", "/v1/metrics"],
    ["POST", "/v1/metrics/cpu"],
    ["POST", "/otlp/v1/metrics"],
    ["POST", "/v1/write"],
  ])("has nothing to say of %s %s", (method, path) => {
    expect(misdirectedAgentHint(method, path, `http://service${path}`)).toBeUndefined();
  });
});
