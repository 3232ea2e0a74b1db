import { hasPrometheus } from "../support/prometheus-agent.ts";
import { startPrometheusReceiver } from "../support/prometheus-receiver.ts";
import { describeRemoteWriteBackend } from "./remote-write-suite.ts";

/*
 * Debian's Prometheus 2.42 as a server with its remote-write receiver on: what a Prometheus agent
 * scraped reaches it through the service's `PROMETHEUS` observer as it was scraped, read back with
 * PromQL over HTTP.
 */
describeRemoteWriteBackend(
  "Prometheus agent → service → Prometheus (remote-write receiver)",
  hasPrometheus,
  "no /usr/bin/prometheus (.ci/run installs Debian's prometheus)",
  startPrometheusReceiver,
);
