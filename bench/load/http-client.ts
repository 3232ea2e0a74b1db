import { Agent, request } from "node:http";

export interface OutgoingRequest {
  method: "GET" | "POST";
  /** Text, or bytes as a compressing or binary protocol sends them. */
  body?: string | Uint8Array;
  contentType?: string;
  /** Further headers, e.g. Content-Encoding. */
  headers?: Record<string, string>;
}

/** An HTTP status, or the code of the network error that left the request unanswered (e.g. "ECONNRESET"). */
export type Outcome = number | string;

/** Sends one request on `agent` (kept-alive connections) and resolves with its outcome. */
export function send(agent: Agent, url: URL, outgoing: OutgoingRequest): Promise<Outcome> {
  const { method, body, contentType, headers } = outgoing;
  return new Promise((resolve) => {
    const pending = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : { "content-type": contentType ?? "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    pending.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    pending.end(body);
  });
}

/**
 * How long a kept-alive connection may stay idle here: less than workerd's 5 s, after which the
 * Worker closes it; a request sent on a connection at the moment the server closes it fails with a
 * reset, which is the client's to avoid, not a refusal.
 */
const idleSocketMs = 4_000;

/** An agent keeping connections alive, dropping idle ones before the server does. */
export function keptAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, timeout: idleSocketMs });
}
