import { createSocket } from "node:dgram";
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";
import { isProbe, parseLine, type ReceivedLine } from "../line-protocol.ts";
import { ArrivalBitset } from "./arrival-bitset.ts";
import { ArrivalCounts } from "./arrival-counts.ts";
import { LatencyHistogram } from "./latency-histogram.ts";
import type { PostingTimes } from "./posting-times.ts";
import { scanTowerJson } from "./tower-json-scan.ts";

export const protocols = ["HTTP", "TCP", "UDP"] as const;
export type Protocol = (typeof protocols)[number];

/**
 * What the observers are registered for: INFLUXDB line protocol, or TOWER/JSON (a JSON array of
 * `{"resourceId","metric","value","timestamp"}` per payload, one payload a line on TCP).
 */
export const observerFormats = ["INFLUXDB", "TOWER/JSON"] as const;
export type ObserverFormat = (typeof observerFormats)[number];

/** A TOWER/JSON element as the bench reads it: the fields of a ReceivedLine, or undefined if it lacks one. */
function towerElement(element: unknown): ReceivedLine | undefined {
  if (typeof element !== "object" || element === null) return undefined;
  const { metric, resourceId, value } = element as Record<string, unknown>;
  if (typeof metric !== "string" || typeof resourceId !== "string" || typeof value !== "number") return undefined;
  return { metric, resourceId, value };
}

/** The elements of one TOWER/JSON payload; undefined when it is not a JSON array. */
function parseTowerJson(text: string): unknown[] | undefined {
  try {
    const document: unknown = JSON.parse(text);
    return Array.isArray(document) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** Every receiver listens on loopback: the systems under test run on this machine. */
export const receiverHost = "127.0.0.1";

/**
 * What one observer received of one metric: of each datum's first arrival, its latency and when it
 * came (as a histogram and counts per time bucket, whose size does not follow the data's number),
 * and how many came again.
 */
export class LatencyRecorder {
  /** Milliseconds from post to first arrival, of each datum received. */
  readonly latencies = new LatencyHistogram();
  /** Date.now() of each first arrival. */
  readonly arrivals = new ArrivalCounts();
  duplicates = 0;
  probes = 0;
  /** Lines not in the bench's format or of no datum posted (a fault of the bench or the system), and the first. */
  unreadable = 0;
  firstUnreadable: string | undefined;
  /** Measured data received, each counted once. */
  distinct = 0;
  private readonly seen = new ArrivalBitset();
  private lastFirstArrival = 0;

  /** `postingTimes`: when each datum was posted (filled in as the bench posts). */
  constructor(
    private readonly metric: string,
    private readonly postingTimes: PostingTimes,
    private readonly format: ObserverFormat = "INFLUXDB",
  ) {}

  /** Date.now() of the last first arrival of a measured datum; 0 before any. */
  get lastArrival(): number {
    return this.lastFirstArrival;
  }

  /**
   * Records whole lines (a trailing newline is optional) that arrived at `arrival`: each a datum in
   * line protocol, or a TOWER/JSON payload (compact JSON holds no newline).
   */
  record(text: string, arrival = Date.now()): void {
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (end > start) {
        if (this.format === "INFLUXDB") this.recordLine(text, start, end, arrival);
        else this.recordTowerJson(text.slice(start, end), arrival);
      }
      start = end + 1;
    }
  }

  private recordLine(text: string, start: number, end: number, arrival: number): void {
    this.recordDatum(parseLine(text, start, end), () => text.slice(start, end), arrival);
  }

  private recordTowerJson(payload: string, arrival: number): void {
    const scanned = scanTowerJson(payload);
    if (scanned !== undefined) {
      for (const received of scanned) this.recordDatum(received, () => JSON.stringify(received), arrival);
      return;
    }
    const elements = parseTowerJson(payload);
    if (elements === undefined) {
      this.recordDatum(undefined, () => payload, arrival);
      return;
    }
    for (const element of elements) this.recordDatum(towerElement(element), () => JSON.stringify(element), arrival);
  }

  /** One datum read (undefined: unreadable, `raw` tells what it was). */
  private recordDatum(received: ReceivedLine | undefined, raw: () => string, arrival: number): void {
    // Another metric's datum is an earlier case's, late, sent to the port this receiver now has.
    if (received !== undefined && received.metric !== this.metric) return;
    const postedAt = received && this.postingTimes.postedAt(received.value);
    if (received !== undefined && isProbe(received.resourceId)) {
      this.probes += 1;
    } else if (received === undefined || postedAt === undefined) {
      this.unreadable += 1;
      this.firstUnreadable ??= raw();
    } else if (this.seen.markArrived(received.value)) {
      this.duplicates += 1;
    } else {
      this.distinct += 1;
      this.latencies.record(arrival - postedAt);
      this.arrivals.record(arrival);
      this.lastFirstArrival = arrival;
    }
  }
}

/** Where an observer of the bench listens, on `receiverHost`, and what it takes; HTTP ones take POSTs on any path. */
export interface ObserverEndpoint {
  readonly protocol: Protocol;
  readonly format: ObserverFormat;
  readonly port: number;
}

/** An observer for the bench that records the latency of what it receives. */
export interface LatencyReceiver extends ObserverEndpoint {
  readonly recorder: LatencyRecorder;
  close(): Promise<void>;
}

/** Listens on a free port of `receiverHost`; closing drops open connections with `dropConnections`. */
export async function listen(server: Server, dropConnections: () => void) {
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

/**
 * Starts an observer of `metric` that records the latency of each datum it receives (see
 * LatencyRecorder), in `format`.
 */
export async function startLatencyReceiver(
  protocol: Protocol,
  metric: string,
  postingTimes: PostingTimes,
  format: ObserverFormat = "INFLUXDB",
): Promise<LatencyReceiver> {
  const recorder = new LatencyRecorder(metric, postingTimes, format);
  const { port, close } = await starters[protocol](recorder);
  return { protocol, format, port, recorder, close };
}
