import type { Context, Handler } from "hono";
import { ApiError } from "../../../shared/problems";
import { type IntakeRoute, usage } from "../../common/usage";
import type { AppEnv } from "../../http/app-env";
import { queueData, retryAfterSeconds } from "../accept-data";
import { farFromNow, farFromNowAccepted } from "../far-from-now-count";
import type { LabelledPoints, RefusedPart } from "./series";
import { type SeriesKeyOptions, seriesToData } from "./series-data";

/** What a protocol's reader made of a request. */
export interface AgentReading {
  series: LabelledPoints[];
  /** The refusals described, the first of them when there are many. */
  refused: RefusedPart[];
  /** Every refusal, also those not described (default: as many as described). */
  refusedTotal?: number;
  /** Whether the request holds more points than MAX_AGENT_DATA_PER_REQUEST (the reader stopped there). */
  tooMany: boolean;
  stringFieldsSkipped?: number;
  staleMarkers?: number;
}

/** What was accepted of a request, and what was refused, the reader's refusals first. */
export interface AgentOutcome {
  accepted: number;
  refused: RefusedPart[];
  /** Every refusal, also those not described. */
  refusedTotal: number;
}

/** A query parameter's comma-separated names. */
function names(parameter: string | undefined): string[] {
  return (parameter ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/**
 * The options of the requests without `resource=` and `drop=`, one object per protocol's primary
 * labels: series-data keeps the keys it built for the options object they were built for.
 */
const defaultKeyOptions = new Map<readonly string[], SeriesKeyOptions>();

/** The request's `resource=` (else the protocol's primary labels) and `drop=` parameters. */
function seriesKeyOptions(c: Context<AppEnv>, defaultPrimary: readonly string[]): SeriesKeyOptions {
  const resource = names(c.req.query("resource"));
  const drop = names(c.req.query("drop"));
  const maxMetricNameLength = c.get("config").MAX_METRIC_NAME_LENGTH;
  if (resource.length > 0 || drop.length > 0) {
    return { primary: resource.length > 0 ? resource : defaultPrimary, drop: new Set(drop), maxMetricNameLength };
  }
  const known = defaultKeyOptions.get(defaultPrimary);
  if (known?.maxMetricNameLength === maxMetricNameLength) return known;
  const options = { primary: defaultPrimary, drop: new Set<string>(), maxMetricNameLength };
  defaultKeyOptions.set(defaultPrimary, options);
  return options;
}

/**
 * Turns a reading into data, queues them the way every datum goes, and counts what the route
 * accepted, refused and skipped. A request over the data limit is refused whole (413), before
 * anything of it is queued.
 */
export async function acceptReading(
  c: Context<AppEnv>,
  route: IntakeRoute,
  reading: AgentReading,
  defaultPrimary: readonly string[],
): Promise<AgentOutcome> {
  if (reading.tooMany) {
    const limit = c.get("config").MAX_AGENT_DATA_PER_REQUEST;
    throw new ApiError(
      "payload-too-large",
      `The request holds more than MAX_AGENT_DATA_PER_REQUEST (${limit}) data; send smaller batches.`,
    );
  }
  const { data, refused } = seriesToData(reading.series, seriesKeyOptions(c, defaultPrimary));
  // Everything wanted of the reading and the data is taken before the send: neither is kept while it waits.
  const accepted = data.length;
  const outcome = {
    accepted,
    refused: [...reading.refused, ...refused],
    refusedTotal: (reading.refusedTotal ?? reading.refused.length) + refused.length,
  };
  const stringFieldsSkipped = reading.stringFieldsSkipped ?? 0;
  const staleMarkersSkipped = reading.staleMarkers ?? 0;
  const farFromNowData = farFromNow(data, Date.now());
  await queueData(c, data);
  farFromNowAccepted[route] += farFromNowData;
  const counts = usage.intake[route];
  usage.dataAccepted += accepted;
  counts.dataAccepted += accepted;
  counts.refused += outcome.refusedTotal;
  counts.stringFieldsSkipped += stringFieldsSkipped;
  counts.staleMarkersSkipped += staleMarkersSkipped;
  return outcome;
}

/** How many refusals an answer names; the rest are counted. */
const namedRefusals = 10;

/**
 * `what 3: why; what 7: why (and 5 more)`: the first refusals of a request, for the protocol's
 * error message; `total` counts those not described too. Without `what`, the messages name their
 * place themselves.
 */
export function describeRefusals(refused: readonly RefusedPart[], total: number, what?: string): string {
  const named = refused
    .slice(0, namedRefusals)
    .map(({ origin, message }) => (what === undefined ? message : `${what} ${origin}: ${message}`));
  const more = total - named.length;
  return `${named.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}

/** An answer in the protocol's own error shape, with the status and headers of `error`. */
export type ErrorAnswer = (error: ApiError) => Response;

/**
 * An agent route's handler: every error answered in the protocol's own shape. An unexpected failure answers 503
 * with Retry-After, not 500: Prometheus and OTLP clients drop a batch answered 500, and resend
 * one answered 503.
 */
export function agentHandler(
  answerError: ErrorAnswer,
  work: (c: Context<AppEnv>) => Promise<Response>,
): Handler<AppEnv> {
  return async (c) => {
    try {
      return await work(c);
    } catch (error) {
      if (error instanceof ApiError) return answerError(error);
      console.error("intake: an agent request failed:", error instanceof Error ? error.message : String(error));
      return answerError(
        new ApiError("unavailable", "The request could not be handled; resend it.", {
          headers: { "retry-after": String(retryAfterSeconds) },
        }),
      );
    }
  };
}
