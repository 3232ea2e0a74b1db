import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { relayDeliveriesPath, type RelayResponse, relayRequestSchema } from "../shared/relay-contract.ts";
import { ApiError, problemBody, zodProblems } from "../shared/problems.ts";
import { prometheusContentType, type RelayCounters } from "./counters.ts";
import type { DeliveryDispatcher } from "./dispatcher.ts";

export interface RelayHttpApiOptions {
  token: string;
  maxBodyBytes: number;
  dispatcher: DeliveryDispatcher;
  counters: RelayCounters;
}

type Route = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compares digests, so neither the token's content nor its length leaks through timing. */
function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

function bearerToken(request: IncomingMessage): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? "")?.[1];
}

function payloadTooLarge(limit: number): ApiError {
  // The rest of the body is not read, so the connection cannot be reused.
  return new ApiError("payload-too-large", `The body is larger than the limit of ${limit} bytes.`, { headers: {
    connection: "close",
  } });
}

/** Reads the whole body, failing with 413 as soon as it is known to exceed `limit`. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers["content-length"]) > limit) {
      reject(payloadTooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => resolve(Buffer.concat(chunks, size));
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off("data", collect).off("end", finish).resume();
        reject(payloadTooLarge(limit));
      } else {
        chunks.push(chunk);
      }
    };
    request.on("data", collect).once("end", finish).once("error", reject);
  });
}

/**
 * The relay's HTTP API: `POST /v1/deliveries` (bearer token), `GET /healthz`, `GET /metrics`.
 * Keeps count of delivery requests under way, so that a shutdown can wait for them.
 */
export class RelayHttpApi {
  private readonly routes: Record<string, Partial<Record<string, Route>>>;
  private accepting = true;
  private deliveriesInFlight = 0;
  private readonly settledWaiters = new Set<() => void>();

  constructor(private readonly options: RelayHttpApiOptions) {
    const health: Route = (_, response) =>
      this.send(response, 200, "application/json", JSON.stringify({ status: "ok" }));
    const metrics: Route = (_, response) =>
      this.send(response, 200, prometheusContentType, options.counters.render());
    this.routes = {
      "/healthz": { GET: health, HEAD: health },
      "/metrics": { GET: metrics, HEAD: metrics },
      [relayDeliveriesPath]: { POST: (request, response) => this.deliveries(request, response) },
    };
  }

  /** The request listener for `http.createServer`. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    this.dispatch(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
      } else if (error instanceof ApiError) {
        this.sendProblem(response, error);
      } else {
        console.error("relay: unhandled error", error instanceof Error ? (error.stack ?? error.message) : error);
        this.sendProblem(response, new ApiError("internal", "An unexpected error occurred; it has been logged."));
      }
    });
  };

  /** From now on, delivery requests are answered 503 so that the Worker retries them elsewhere or later. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Resolves true once no delivery request is under way, or false when `timeoutMs` passed first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.deliveriesInFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.settledWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.settledWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.settledWaiters.add(done);
    });
  }

  private send(response: ServerResponse, status: number, contentType: string, body: string): void {
    // While shutting down, no client should send another request on this connection.
    if (!this.accepting) response.setHeader("connection", "close");
    response.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) }).end(body);
  }

  private sendProblem(response: ServerResponse, error: ApiError): void {
    for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
    this.send(response, error.status, "application/problem+json", JSON.stringify(problemBody(error)));
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://relay").pathname;
    const methods = this.routes[path];
    if (!methods) throw ApiError.notFound(`No route matches ${path}.`);
    const route = methods[request.method ?? ""];
    if (!route) {
      const detail = `${request.method} is not allowed on ${path}.`;
      throw new ApiError("method-not-allowed", detail, { headers: { allow: Object.keys(methods).join(", ") } });
    }
    await route(request, response);
  }

  private async deliveries(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.accepting) throw new ApiError("unavailable", "The relay is shutting down.");
    const token = bearerToken(request);
    if (token === undefined || !tokenMatches(token, this.options.token)) {
      throw new ApiError("unauthorized", "A valid bearer token is required.", { headers: {
        "www-authenticate": 'Bearer realm="tower-edge-relay"',
      } });
    }
    const contentType = request.headers["content-type"];
    if (contentType && !jsonMediaType.test(contentType.split(";")[0]!.trim())) {
      throw new ApiError("unsupported-media-type", `Expected application/json, got ${contentType}.`);
    }
    // Counted until the answer has been handed to the network (or the client went away).
    this.deliveriesInFlight += 1;
    response.once("close", () => {
      this.deliveriesInFlight -= 1;
      if (this.deliveriesInFlight === 0) for (const waiter of [...this.settledWaiters]) waiter();
    });
    const body = await readBody(request, this.options.maxBodyBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch (error) {
      throw new ApiError("malformed-json", `The body is not valid JSON: ${(error as Error).message}`);
    }
    const deliveryRequest = relayRequestSchema.safeParse(parsed);
    if (!deliveryRequest.success) throw ApiError.validation(zodProblems(deliveryRequest.error));
    const answer: RelayResponse = {
      results: await this.options.dispatcher.deliverAll(deliveryRequest.data.deliveries),
    };
    this.send(response, 200, "application/json", JSON.stringify(answer));
  }
}
