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
  /** Date.now() of each first arrival, in the order of `latencies`. */
  readonly arrivals: number[] = [];
  duplicates = 0;
  probes = 0;
  /** Lines not in the bench's format or of no datum posted (a fault of the bench or the system), and the first. */
  unreadable = 0;
  firstUnreadable: string | undefined;
  /** Measured data received, each counted once. */
  distinct = 0;
  /** seen[n] is 1 once datum n arrived; grown as needed. */
  private seen = new Uint8Array(1024);

  /** `postedAt[n]`: when datum n was posted (filled in as the bench posts). */
  constructor(
    private readonly metric: string,
    private readonly postedAt: readonly number[],
  ) {}

  /** Date.now() of the last first arrival of a measured datum; 0 before any. */
  get lastArrival(): number {
    return this.arrivals.at(-1) ?? 0;
  }

  /** Records whole lines (a trailing newline is optional) that arrived at `arrival`. */
  record(text: string, arrival = Date.now()): void {
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (end > start) this.recordLine(text, start, end, arrival);
      start = end + 1;
    }
  }

  private recordLine(text: string, start: number, end: number, arrival: number): void {
    const received = parseLine(text, start, end);
    // Another metric's line is an earlier case's, late, sent to the port this receiver now has.
    if (received !== undefined && received.metric !== this.metric) return;
    const postedAt = received && this.postedAt[received.value];
    if (received !== undefined && isProbe(received.resourceId)) {
      this.probes += 1;
    } else if (received === undefined || postedAt === undefined) {
      this.unreadable += 1;
      this.firstUnreadable ??= text.slice(start, end);
    } else if (this.hasSeen(received.value)) {
      this.duplicates += 1;
    } else {
      this.distinct += 1;
      this.latencies.push(arrival - postedAt);
      this.arrivals.push(arrival);
    }
  }

  /** Whether datum `sequence` (an index of postedAt) arrived before; marks it as arrived. */
  private hasSeen(sequence: number): boolean {
    if (sequence >= this.seen.length) {
      const grown = new Uint8Array(Math.max(sequence + 1, this.seen.length * 2));
      grown.set(this.seen);
      this.seen = grown;
    }
    if (this.seen[sequence] === 1) return true;
    this.seen[sequence] = 1;
    return false;
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
      // Answered before the body is read, as a receiver that queues what it gets would.
      const arrival = Date.now();
      response.writeHead(204).end();
      recorder.record(body, arrival);
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
