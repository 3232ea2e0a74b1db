import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { freePort } from "../../../tools/testing/free-port.ts";

/** How the receiver treats a delivery: takes it, refuses the connection, or answers an error. */
export type ReceiverMode =
  | { kind: "up"; delayMs: number }
  | { kind: "down" }
  | { kind: "error"; status: number; retryAfter?: string };

export interface SwitchableReceiver {
  /** Its address, the same whether it is up or down. */
  readonly url: string;
  readonly mode: ReceiverMode;
  /** How many times each datum id arrived in a request answered 2xx. */
  readonly arrivals: ReadonlyMap<string, number>;
  /** Requests it read, whatever it answered. */
  readonly requests: number;
  /** Distinct datum ids that arrived. */
  distinct(): number;
  /** Arrivals beyond the first of each datum id. */
  duplicates(): number;
  /** Listens and answers 204, after `delayMs` when given (a slow observer). */
  up(delayMs?: number): Promise<void>;
  /** Stops listening and drops its connections: deliveries are refused. */
  down(): Promise<void>;
  /** Listens and answers `status` (with `retryAfter` as Retry-After when given), taking nothing. */
  fail(status: number, retryAfter?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * An RDF/JSON observer on a fixed 127.0.0.1 port that can be switched down (connections refused),
 * up, or to answering errors, as often as a test wants, and counts the datum ids (the subjects of
 * the RDF/JSON documents) that arrived. Starts down unless told otherwise.
 */
export async function startSwitchableReceiver(initially: "up" | "down" = "down"): Promise<SwitchableReceiver> {
  const port = await freePort();
  const arrivals = new Map<string, number>();
  let mode: ReceiverMode = { kind: "down" };
  let requests = 0;
  let server: Server | undefined;
  const sockets = new Set<Socket>();

  const handle = (request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests += 1;
      const current = mode;
      if (current.kind === "error") {
        const headers = current.retryAfter === undefined ? {} : { "retry-after": current.retryAfter };
        response.writeHead(current.status, headers).end();
        return;
      }
      let ids: string[];
      try {
        ids = Object.keys(JSON.parse(Buffer.concat(chunks).toString("utf8")) as object);
      } catch {
        response.writeHead(400).end();
        return;
      }
      // Counted when the answer goes out, whether or not the sender still waits for it.
      const take = () => {
        for (const id of ids) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
        response.writeHead(204).end();
      };
      if (current.kind === "up" && current.delayMs > 0) setTimeout(take, current.delayMs);
      else take();
    });
  };

  const listen = async () => {
    if (server) return;
    const created = createServer(handle);
    created.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      created.once("error", reject);
      created.listen(port, "127.0.0.1", () => resolve());
    });
    server = created;
  };

  const stopListening = async () => {
    const running = server;
    if (!running) return;
    server = undefined;
    const closed = new Promise<void>((resolve) => running.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  const receiver: SwitchableReceiver = {
    url: `http://127.0.0.1:${port}/`,
    get mode() {
      return mode;
    },
    arrivals,
    get requests() {
      return requests;
    },
    distinct: () => arrivals.size,
    duplicates: () => [...arrivals.values()].reduce((total, count) => total + count - 1, 0),
    async up(delayMs = 0) {
      mode = { kind: "up", delayMs };
      await listen();
    },
    async down() {
      mode = { kind: "down" };
      await stopListening();
    },
    async fail(status, retryAfter) {
      mode = { kind: "error", status, ...(retryAfter === undefined ? {} : { retryAfter }) };
      await listen();
    },
    close: stopListening,
  };
  if (initially === "up") await receiver.up();
  return receiver;
}
