/*
 * Where an agent probably meant to send, for the refusals of a path it reached by a slip: an OTLP
 * exporter given the service's own address as its base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT)
 * posts to /v1/metrics, which is the API's list of metrics, not an intake.
 */

const metricsCatalog = /^(\/v1)?\/metrics\/?$/;

/** What to send instead, as a sentence, or undefined for a request that is no such slip. */
export function misdirectedAgentHint(method: string, path: string, url: string): string | undefined {
  if (method !== "POST" || !metricsCatalog.test(path)) return undefined;
  const { origin } = new URL(url);
  return (
    `OTLP metrics go to /otlp/v1/metrics: set OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/otlp ` +
    `(or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=${origin}/otlp/v1/metrics).`
  );
}
