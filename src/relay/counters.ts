import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

export type RelayProtocol = "tcp" | "udp";

const protocols: readonly RelayProtocol[] = ["tcp", "udp"];

/**
 * The relay's own metrics for a Prometheus scrape: deliveries, bytes and failures per protocol, how
 * long deliveries took, and the process's (memory, CPU, event loop). One registry per relay, so
 * that relays started side by side (as tests do) count apart.
 */
export class RelayCounters {
  private readonly registry = new Registry();
  private readonly deliveries = new Counter({
    name: "relay_deliveries_total",
    help: "Deliveries completed: every byte written (TCP) or sent (UDP).",
    labelNames: ["protocol"],
    registers: [this.registry],
  });
  private readonly bytes = new Counter({
    name: "relay_bytes_total",
    help: "Payload bytes written (TCP) or sent in datagrams (UDP).",
    labelNames: ["protocol"],
    registers: [this.registry],
  });
  private readonly failures = new Counter({
    name: "relay_failures_total",
    help: "Deliveries that failed and were reported back for a retry.",
    labelNames: ["protocol"],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: "relay_delivery_duration_seconds",
    help: "How long a delivery took, from its start to its last byte written or sent, or its failure.",
    labelNames: ["protocol", "outcome"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "relay_" });
    // Gauges named like counters, which Prometheus' own lint (promtool check metrics) refuses.
    for (const name of [
      "nodejs_active_handles_total",
      "nodejs_active_requests_total",
      "nodejs_active_resources_total",
    ]) {
      this.registry.removeSingleMetric(`relay_${name}`);
    }
    // Every series exists from the start, so a rate over the first scrape is not missing.
    for (const protocol of protocols) {
      this.deliveries.inc({ protocol }, 0);
      this.bytes.inc({ protocol }, 0);
      this.failures.inc({ protocol }, 0);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  delivered(protocol: RelayProtocol, bytes: number, seconds: number): void {
    this.deliveries.inc({ protocol });
    this.bytes.inc({ protocol }, bytes);
    this.duration.observe({ protocol, outcome: "delivered" }, seconds);
  }

  failed(protocol: RelayProtocol, seconds: number): void {
    this.failures.inc({ protocol });
    this.duration.observe({ protocol, outcome: "failed" }, seconds);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
