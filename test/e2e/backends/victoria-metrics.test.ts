import { hasPrometheus } from "../support/prometheus-agent.ts";
import { hasVictoriaMetrics, startVictoriaMetrics } from "../support/victoria-metrics.ts";
import { describeRemoteWriteBackend } from "./remote-write-suite.ts";

/*
 * Debian's VictoriaMetrics 1.79: what a Prometheus agent scraped reaches it through the service's
 * `PROMETHEUS` observer as it was scraped, read back with `/api/v1/export`.
 */
describeRemoteWriteBackend(
  "Prometheus agent → service → VictoriaMetrics",
  hasPrometheus && hasVictoriaMetrics,
  "needs /usr/bin/prometheus and /usr/bin/victoria-metrics (.ci/run installs Debian's prometheus and victoria-metrics)",
  startVictoriaMetrics,
);
