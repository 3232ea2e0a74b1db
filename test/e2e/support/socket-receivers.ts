import { createSocket } from "node:dgram";
import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { eventually } from "./service.ts";

export interface TcpReceiver {
  port: number;
  /** Everything received, across connections, in arrival order. */
  text(): string;
  /** What each connection received, in the order the connections were accepted. */
  textsByConnection(): string[];
  /** Connections accepted so far. */
  connections: number;
  /** Connections open right now. */
  openConnections(): number;
  /** Stops reading (the kernel buffers fill, the sender sees backpressure) / reads again. */
  pauseReading(): void;
  resumeReading(): void;
  /** Resolves once as many bytes as `expected` holds (as text) have arrived in total. */
  waitForText(expected: string, timeoutMs?: number): Promise<void>;
  /** Closes the listener and drops every connection, like a receiver that stops. */
  close(): Promise<void>;
}

/** A real TCP observer on 127.0.0.1 (`port` 0 picks a free one; a given port allows a restart on it). */
export async function startTcpReceiver(port = 0): Promise<TcpReceiver> {
  const chunks: Buffer[] = [];
  const chunksByConnection: Buffer[][] = [];
  const sockets = new Set<Socket>();
  let paused = false;
  const server = createServer((socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    if (paused) socket.pause();
    const received: Buffer[] = [];
    chunksByConnection.push(received);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received.push(chunk);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const text = () => Buffer.concat(chunks).toString("utf8");
  const receiver: TcpReceiver = {
    port: (server.address() as AddressInfo).port,
    text,
    textsByConnection: () => chunksByConnection.map((received) => Buffer.concat(received).toString("utf8")),
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
  /** Each datagram received, as UTF-8 text. */
  datagrams: string[];
  /** Resolves once at least `count` datagrams have arrived. */
  waitForDatagrams(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real UDP observer on 127.0.0.1 (or on ::1 for "udp6"). */
export async function startUdpReceiver(type: "udp4" | "udp6" = "udp4"): Promise<UdpReceiver> {
  const socket = createSocket(type);
  const datagrams: string[] = [];
  socket.on("message", (message) => datagrams.push(message.toString("utf8")));
  socket.bind(0, type === "udp6" ? "::1" : "127.0.0.1");
  await once(socket, "listening");
  return {
    port: socket.address().port,
    datagrams,
    async waitForDatagrams(count, timeoutMs = 10_000) {
      await eventually(() => datagrams.length >= count, timeoutMs);
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
