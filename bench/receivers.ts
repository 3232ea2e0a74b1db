import { createSocket } from "node:dgram";
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { isProbe, parseLine } from "./line-protocol.ts";

export const protocols = ["HTTP", "TCP", "UDP"] as const;
export type Protocol = (typeof protocols)[number];

/** Every receiver listens on loopback: the systems under test run on this machine. */
export const receiverHost = "127.0.0.1";

/** What one observer received of one metric: the first arrival of each datum, and what came again. */
export class LatencyRecorder {
  /** Milliseconds from post to first arrival, one entry per datum received. */
  readonly latencies: number[] = [];
  duplicates = 0;
  probes = 0;
  /** Lines not in the bench's format or of no datum posted (a fault of the bench or the system), and the first. */
  unreadable = 0;
  firstUnreadable: string | undefined;
  /** Date.now() of the last first arrival of a measured datum; 0 before any. */
  lastArrival = 0;
  private readonly seen = new Set<number>();

  /** `postedAt[n]`: when datum n was posted (filled in as the bench posts). */
  constructor(
    private readonly metric: string,
    private readonly postedAt: readonly number[],
  ) {}

  get distinct(): number {
    return this.seen.size;
  }

  /** Records whole lines (a trailing newline is optional) that arrived at `arrival`. */
  record(text: string, arrival = Date.now()): void {
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const received = parseLine(line);
      // Another metric's line is an earlier case's, late, sent to the port this receiver now has.
      if (received !== undefined && received.metric !== this.metric) continue;
      const postedAt = received && this.postedAt[received.value];
      if (received !== undefined && isProbe(received.resourceId)) {
        this.probes += 1;
      } else if (received === undefined || postedAt === undefined) {
        this.unreadable += 1;
        this.firstUnreadable ??= line;
      } else if (this.seen.has(received.value)) {
        this.duplicates += 1;
      } else {
        this.seen.add(received.value);
        this.latencies.push(arrival - postedAt);
        this.lastArrival = arrival;
      }
    }
  }
}

/** An observer for the bench, on `receiverHost`:`port`; HTTP ones take POSTs on any path. */
export interface LatencyReceiver {
  readonly protocol: Protocol;
  readonly port: number;
  readonly recorder: LatencyRecorder;
  close(): Promise<void>;
}

/** Listens on a free port of `receiverHost`; closing drops open connections with `dropConnections`. */
async function listen(server: Server, dropConnections: () => void) {
  server.listen(0, receiverHost);
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      dropConnections();
      await closed;
    },
  };
}

async function httpReceiver(recorder: LatencyRecorder) {
  const server = createHttpServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      recorder.record(body);
      response.writeHead(204).end();
    });
  });
  return listen(server, () => server.closeAllConnections());
}

async function tcpReceiver(recorder: LatencyRecorder) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    // A line may be split across chunks (and a character across bytes): keep the unfinished tail.
    const decoder = new StringDecoder("utf8");
    let unfinished = "";
    socket.on("data", (chunk: Buffer) => {
      const text = unfinished + decoder.write(chunk);
      const end = text.lastIndexOf("\n") + 1;
      recorder.record(text.slice(0, end));
      unfinished = text.slice(end);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  return listen(server, () => {
    for (const socket of sockets) socket.destroy();
  });
}

/** A receive buffer as large as the kernel grants, so the receiver drops no more than it must. */
const udpReceiveBufferBytes = 8 * 1024 * 1024;

async function udpReceiver(recorder: LatencyRecorder) {
  const socket = createSocket({ type: "udp4", recvBufferSize: udpReceiveBufferBytes });
  socket.on("message", (message) => recorder.record(message.toString("utf8")));
  socket.bind(0, receiverHost);
  await once(socket, "listening");
  return {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

const starters = { HTTP: httpReceiver, TCP: tcpReceiver, UDP: udpReceiver } satisfies Record<Protocol, unknown>;

/** Starts an observer of `metric` that records the latency of each datum it receives (see LatencyRecorder). */
export async function startLatencyReceiver(
  protocol: Protocol,
  metric: string,
  postedAt: readonly number[],
): Promise<LatencyReceiver> {
  const recorder = new LatencyRecorder(metric, postedAt);
  const { port, close } = await starters[protocol](recorder);
  return { protocol, port, recorder, close };
}
