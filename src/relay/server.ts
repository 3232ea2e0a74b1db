import type { HttpBindings } from "@hono/node-server";
import { Hono, type MiddlewareHandler } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { problemBodyLimit } from "../shared/http/body-limit.ts";
import { jsonBody } from "../shared/http/json-body.ts";
import { problemOnError, problemOnMethodNotAllowed, problemOnNotFound } from "../shared/http/problem-handlers.ts";
import { ApiError } from "../shared/problems.ts";
import { type RelayResponse, relayDeliveriesPath, relayRequestSchema } from "../shared/relay-contract.ts";
import type { RelayCounters } from "./counters.ts";
import type { DeliveryDispatcher } from "./dispatcher.ts";
import { InFlight } from "./in-flight.ts";
import { requireToken } from "./token-auth.ts";

export interface RelayHttpApiOptions {
  token: string;
  maxBodyBytes: number;
  dispatcher: DeliveryDispatcher;
  counters: RelayCounters;
}

/** Served by `@hono/node-server`, which hands each request's node:http objects to the app. */
type RelayEnv = { Bindings: HttpBindings };

/**
 * The relay's HTTP API: `POST /v1/deliveries` (bearer token), `GET /healthz`, `GET /metrics`.
 * Keeps count of delivery requests under way, so that a shutdown can wait for them.
 */
export class RelayHttpApi {
  readonly app = new Hono<RelayEnv>();
  private accepting = true;
  private readonly deliveries = new InFlight();

  constructor(options: RelayHttpApiOptions) {
    const { app } = this;
    app.onError(problemOnError("relay: unhandled error"));
    app.notFound(problemOnNotFound);
    app.use(methodNotAllowed({ app, onMethodNotAllowed: problemOnMethodNotAllowed }));
    app.use(async (c, next) => {
      await next();
      // While shutting down, no client should send another request on this connection.
      if (!this.accepting) c.header("connection", "close");
    });

    app.get("/healthz", (c) => c.json({ status: "ok" }));
    app.get("/metrics", async (c) =>
      c.body(await options.counters.render(), 200, { "content-type": options.counters.contentType }),
    );
    app.post(
      relayDeliveriesPath,
      this.admit,
      requireToken(options.token),
      // The rest of a body over the limit is not read, so the connection cannot be reused.
      problemBodyLimit(options.maxBodyBytes, { connection: "close" }),
      jsonBody(relayRequestSchema),
      async (c) => {
        const { deliveries, deadlineMs } = c.req.valid("json");
        const answer: RelayResponse = { results: await options.dispatcher.deliverAll(deliveries, deadlineMs) };
        return c.json(answer);
      },
    );
  }

  /** From now on, delivery requests are answered 503 so that the Worker retries them elsewhere or later. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Resolves true once no delivery request is under way, or false when `timeoutMs` passed first. */
  settled(timeoutMs: number): Promise<boolean> {
    return this.deliveries.settled(timeoutMs);
  }

  /** Counts a delivery request from here until its answer has been handed to the network (or the client went away). */
  private readonly admit: MiddlewareHandler<RelayEnv> = async (c, next) => {
    if (!this.accepting) throw new ApiError("unavailable", "The relay is shutting down.");
    this.deliveries.begin();
    c.env.outgoing.once("close", () => this.deliveries.end());
    await next();
  };
}
