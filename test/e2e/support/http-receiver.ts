import { createServer, type IncomingHttpHeaders } from "node:http";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: string;
  /** Requests answered with a 2xx, i.e. deliveries the service may count as done. */
  received: ReceivedRequest[];
  /** Every request, whatever the answer. */
  attempts: number;
  /** Answers the next `count` requests with `status`, then goes back to the standing answer. */
  failNext(count: number, status?: number): void;
  /** The standing answer (204 at first). */
  answerWith(status: number): void;
  close(): Promise<void>;
}

/** A real HTTP observer on 127.0.0.1 that records what it receives. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const pending: number[] = [];
  let standing = 204;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.attempts += 1;
      const status = pending.shift() ?? standing;
      if (status >= 200 && status < 300) {
        receiver.received.push({
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  const receiver: HttpReceiver = {
    url: `http://127.0.0.1:${address.port}`,
    received: [],
    attempts: 0,
    failNext(count, status = 503) {
      pending.push(...Array.from({ length: count }, () => status));
    },
    answerWith(status) {
      standing = status;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
