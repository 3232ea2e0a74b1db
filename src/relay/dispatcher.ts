import type { RelayDelivery, RelayResult, UdpDelivery } from "../shared/relay-contract.ts";
import type { RelayCounters } from "./counters.ts";
import type { DestinationPolicy } from "./destination-policy.ts";
import type { TcpPool } from "./tcp-pool.ts";
import { packDatagrams, type UdpSender } from "./udp-sender.ts";

export interface DispatcherParts {
  tcp: TcpPool;
  udp: UdpSender;
  policy: DestinationPolicy;
  counters: RelayCounters;
  maxDatagramBytes: number;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Carries out deliveries and turns each outcome into its result, counting it. */
export class DeliveryDispatcher {
  private abortInFlight!: (reason: Error) => void;
  /** Rejects on abort, so that nothing under way (a slow lookup included) outlives a shutdown. */
  private readonly aborted = new Promise<never>((_, reject) => {
    this.abortInFlight = reject;
  });

  constructor(private readonly parts: DispatcherParts) {
    this.aborted.catch(() => undefined);
  }

  /**
   * Runs the deliveries concurrently and answers one result per delivery, in their order, by
   * `deadlineMs` at the latest when it is given. TCP
   * deliveries are queued on their destination synchronously, in array order, so deliveries to
   * one destination are written in the order given.
   */
  deliverAll(deliveries: readonly RelayDelivery[], deadlineMs?: number): Promise<RelayResult[]> {
    const results = deliveries.map((delivery) => this.deliver(delivery));
    if (deadlineMs === undefined) return Promise.all(results);
    // At the deadline, what is still under way is answered pending; it goes on and is counted when it ends.
    return new Promise((resolve) => {
      const settled: (RelayResult | undefined)[] = new Array(deliveries.length);
      let remaining = deliveries.length;
      const timer = setTimeout(() => {
        resolve(deliveries.map((delivery, index) => settled[index] ?? { id: delivery.id, ok: false, pending: true }));
      }, deadlineMs);
      for (const [index, result] of results.entries()) {
        void result.then((value) => {
          settled[index] = value;
          remaining -= 1;
          if (remaining === 0) {
            clearTimeout(timer);
            resolve(settled as RelayResult[]);
          }
        });
      }
    });
  }

  /** Fails every delivery still under way with `reason` (their results say so) and closes TCP connections. */
  abort(reason: Error): void {
    this.abortInFlight(reason);
    this.parts.tcp.close(reason);
  }

  private async deliver(delivery: RelayDelivery): Promise<RelayResult> {
    const protocol = delivery.protocol === "TCP" ? "tcp" : "udp";
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const bytes = await Promise.race([this.carry(delivery), this.aborted]);
      this.parts.counters.delivered(protocol, bytes, seconds());
      return { id: delivery.id, ok: true, bytes };
    } catch (error) {
      this.parts.counters.failed(protocol, seconds());
      return { id: delivery.id, ok: false, error: reasonOf(error) };
    }
  }

  private carry(delivery: RelayDelivery): Promise<number> {
    if (delivery.protocol === "UDP") return this.sendDatagrams(delivery);
    const payload = Buffer.from(delivery.payload, "utf8");
    return this.parts.tcp.deliver(delivery.host, delivery.port, payload).then(() => payload.length);
  }

  private async sendDatagrams(delivery: UdpDelivery): Promise<number> {
    const datagrams = packDatagrams(delivery.records, delivery.packing, this.parts.maxDatagramBytes);
    const destination = await this.parts.policy.resolve(delivery.host, delivery.port);
    return this.parts.udp.send(datagrams, destination, delivery.port);
  }
}
