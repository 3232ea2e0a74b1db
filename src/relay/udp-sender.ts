import { createSocket, type Socket } from "node:dgram";
import { packBatches } from "../shared/bounded-batches.ts";
import type { UdpDelivery } from "../shared/relay-contract.ts";
import type { ResolvedAddress } from "./destination-policy.ts";

/** The largest UDP payload over IPv4 (65,535 minus the IP and UDP headers). */
export const maxUdpPayloadBytes = 65_507;

function asLine(record: string): string {
  return record.endsWith("\n") ? record : `${record}\n`;
}

/**
 * Splits a delivery's records into datagrams of at most `maxBytes` bytes (UTF-8), never splitting a
 * record: `lines` packs as many whole lines (each newline-terminated) per datagram as fit,
 * `one-per-datagram` sends each record alone. A record that cannot fit alone fails the whole
 * delivery before anything is sent.
 */
export function packDatagrams(records: readonly string[], packing: UdpDelivery["packing"], maxBytes: number): Buffer[] {
  const units = records.map((record) => Buffer.from(packing === "lines" ? asLine(record) : record, "utf8"));
  const oversized = units.findIndex((unit) => unit.length > maxBytes);
  if (oversized !== -1) {
    throw new Error(
      `record ${oversized} is ${units[oversized]!.length} bytes, larger than the ${maxBytes}-byte datagram limit`,
    );
  }
  if (packing === "one-per-datagram") return units;
  return packBatches(units, { maxSize: maxBytes, sizeOf: (unit) => unit.length }).map(({ items, size }) =>
    Buffer.concat(items, size),
  );
}

/** Sends datagrams from one unbound-port socket per address family, created on first use. */
export class UdpSender {
  private readonly sockets = new Map<4 | 6, Socket>();
  private closed = false;

  /** Resolves with the bytes sent once every datagram was handed to the network. */
  async send(datagrams: readonly Buffer[], destination: ResolvedAddress, port: number): Promise<number> {
    const socket = this.socketFor(destination.family);
    await Promise.all(
      datagrams.map(
        (datagram) =>
          new Promise<void>((resolve, reject) =>
            socket.send(datagram, port, destination.address, (error) => (error ? reject(error) : resolve())),
          ),
      ),
    );
    return datagrams.reduce((total, datagram) => total + datagram.length, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    const sockets = [...this.sockets.values()];
    this.sockets.clear();
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
  }

  private socketFor(family: 4 | 6): Socket {
    if (this.closed) throw new Error("the relay is shutting down");
    let socket = this.sockets.get(family);
    if (!socket) {
      const created = createSocket(family === 6 ? "udp6" : "udp4");
      // A failed send reports through its callback; a socket-level error makes the next send use a new socket.
      created.on("error", () => {
        if (this.sockets.get(family) !== created) return;
        this.sockets.delete(family);
        created.close();
      });
      this.sockets.set(family, created);
      socket = created;
    }
    return socket;
  }
}
