import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { eventually } from "./service.ts";

export interface TcpReceiver {
  port: number;
  /** Every byte received, over all connections, in arrival order. */
  text(): string;
  /** Connections accepted so far. */
  connections: number;
  /** Connections open right now. */
  openConnections(): number;
  /** Stops reading (the kernel buffers fill, the sender sees backpressure) / reads again. */
  pauseReading(): void;
  resumeReading(): void;
  /** Resolves once `expected` bytes (as text) have arrived in total. */
  waitForText(expected: string, timeoutMs?: number): Promise<void>;
  /** Closes the listener and drops every connection, like a receiver that stops. */
  close(): Promise<void>;
}

/** A real TCP receiver on 127.0.0.1 (on `port` when given, e.g. to restart on the same port). */
export async function startTcpReceiver(port = 0): Promise<TcpReceiver> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let paused = false;
  const server: Server = createServer((socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    if (paused) socket.pause();
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const text = () => Buffer.concat(chunks).toString("utf8");
  const receiver: TcpReceiver = {
    port: (server.address() as AddressInfo).port,
    text,
    connections: 0,
    openConnections: () => sockets.size,
    pauseReading() {
      paused = true;
      for (const socket of sockets) socket.pause();
    },
    resumeReading() {
      paused = false;
      for (const socket of sockets) socket.resume();
    },
    async waitForText(expected, timeoutMs = 10_000) {
      await eventually(() => text().length >= expected.length, timeoutMs);
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return receiver;
}

export interface UdpReceiver {
  port: number;
  datagrams: Buffer[];
  texts(): string[];
  /** Resolves once at least `count` datagrams have arrived. */
  waitForDatagrams(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real UDP receiver on 127.0.0.1 (or ::1 for "udp6"). */
export async function startUdpReceiver(type: "udp4" | "udp6" = "udp4"): Promise<UdpReceiver> {
  const socket: UdpSocket = createSocket(type);
  const datagrams: Buffer[] = [];
  socket.on("message", (message) => datagrams.push(message));
  socket.bind(0, type === "udp6" ? "::1" : "127.0.0.1");
  await once(socket, "listening");
  return {
    port: socket.address().port,
    datagrams,
    texts: () => datagrams.map((datagram) => datagram.toString("utf8")),
    async waitForDatagrams(count, timeoutMs = 10_000) {
      await eventually(() => datagrams.length >= count, timeoutMs);
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
