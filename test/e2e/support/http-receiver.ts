import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the whole request had arrived (Date.now()). */
  at: number;
  /** The status it was answered with; undefined for a request left hanging. */
  status: number | undefined;
}

/** How the receiver answers a request: a status and extra response headers, or never (`hang`). */
export type Answer = { status: number; headers?: Record<string, string> } | "hang";

export interface HttpReceiver {
  url: string;
  /** Requests answered with a 2xx, i.e. deliveries the service may count as done. */
  received: ReceivedRequest[];
  /** Every request, whatever the answer, in arrival order. */
  requests: ReceivedRequest[];
  /** How many requests arrived, whatever the answer. */
  attempts: number;
  /** Answers the next `count` requests with `status` (and `headers`), then goes back to the standing answer. */
  failNext(count: number, status?: number, headers?: Record<string, string>): void;
  /** The standing answer (204 at first). */
  answerWith(status: number, headers?: Record<string, string>): void;
  /** From now on, requests get no answer at all until `answerWith` (or `close`). */
  hang(): void;
  /** Stops listening and drops every connection: the observer is down (connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop`. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP observer on 127.0.0.1 that records what it receives and when. `port` 0 picks a free
 * one; the receiver keeps it across `stop` and `start`.
 */
export async function startHttpReceiver(port = 0): Promise<HttpReceiver> {
  const pending: Answer[] = [];
  let standing: Answer = { status: 204 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.attempts += 1;
      const answer = pending.shift() ?? standing;
      const recorded: ReceivedRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        status: answer === "hang" ? undefined : answer.status,
      };
      receiver.requests.push(recorded);
      if (answer === "hang") return;
      if (answer.status >= 200 && answer.status < 300) receiver.received.push(recorded);
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  let listening = false;
  const listen = async (on: number) => {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(on, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    listening = true;
  };
  const stop = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  await listen(port);
  const assigned = (server.address() as AddressInfo).port;
  const receiver: HttpReceiver = {
    url: `http://127.0.0.1:${assigned}`,
    received: [],
    requests: [],
    attempts: 0,
    failNext(count, status = 503, headers) {
      pending.push(...Array.from({ length: count }, () => ({ status, ...(headers ? { headers } : {}) })));
    },
    answerWith(status, headers) {
      standing = { status, ...(headers ? { headers } : {}) };
    },
    hang() {
      standing = "hang";
    },
    stop,
    start: () => listen(assigned),
    close: stop,
  };
  return receiver;
}
