import { createSocket } from "node:dgram";
import { createServer, type Socket } from "node:net";

export interface TcpReceiver {
  port: number;
  /** Everything received, across connections, in arrival order. */
  text(): string;
  close(): Promise<void>;
}

/** A real TCP observer on 127.0.0.1 (`port` 0 picks a free one). */
export async function startTcpReceiver(port = 0): Promise<TcpReceiver> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  return {
    port: address.port,
    text: () => Buffer.concat(chunks).toString("utf8"),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface UdpReceiver {
  port: number;
  datagrams: string[];
  close(): Promise<void>;
}

/** A real UDP observer on 127.0.0.1. */
export async function startUdpReceiver(): Promise<UdpReceiver> {
  const socket = createSocket("udp4");
  const datagrams: string[] = [];
  socket.on("message", (message) => datagrams.push(message.toString("utf8")));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    port: socket.address().port,
    datagrams,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
