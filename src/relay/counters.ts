export type RelayProtocol = "tcp" | "udp";

const protocols: readonly RelayProtocol[] = ["tcp", "udp"];

interface ProtocolCounts {
  deliveries: number;
  bytes: number;
  failures: number;
}

const counterDefinitions: readonly { name: string; help: string; count: keyof ProtocolCounts }[] = [
  {
    name: "relay_deliveries_total",
    help: "Deliveries completed: every byte written (TCP) or sent (UDP).",
    count: "deliveries",
  },
  { name: "relay_bytes_total", help: "Payload bytes written (TCP) or sent in datagrams (UDP).", count: "bytes" },
  {
    name: "relay_failures_total",
    help: "Deliveries that failed and were reported back for a retry.",
    count: "failures",
  },
];

/** The relay's delivery counters, rendered in the Prometheus text exposition format. */
export class RelayCounters {
  private readonly counts: Record<RelayProtocol, ProtocolCounts> = {
    tcp: { deliveries: 0, bytes: 0, failures: 0 },
    udp: { deliveries: 0, bytes: 0, failures: 0 },
  };

  delivered(protocol: RelayProtocol, bytes: number): void {
    this.counts[protocol].deliveries += 1;
    this.counts[protocol].bytes += bytes;
  }

  failed(protocol: RelayProtocol): void {
    this.counts[protocol].failures += 1;
  }

  render(): string {
    return counterDefinitions
      .flatMap(({ name, help, count }) => [
        `# HELP ${name} ${help}`,
        `# TYPE ${name} counter`,
        ...protocols.map((protocol) => `${name}{protocol="${protocol}"} ${this.counts[protocol][count]}`),
      ])
      .map((line) => `${line}\n`)
      .join("");
  }
}

export const prometheusContentType = "text/plain; version=0.0.4; charset=utf-8";
