import { createMiddleware } from "hono/factory";
import { ApiError } from "../../../shared/problems";
import type { AppEnv } from "../../http/app-env";
import { unversioned } from "../../http/auth";
import { influxV1Error, influxV2Error } from "../line-protocol/influx-answers";
import { encodingOf, statusAnswer } from "../otlp/status-answer";
import { remoteWriteError } from "../remote-write/remote-write-error";
import type { ErrorAnswer } from "./agent-intake";

/** An agent protocol's answer to a refusal, and how its clients send less at once. */
interface AgentProtocol {
  answer(request: Request): ErrorAnswer;
  /** The remedy for a body over MAX_BODY_BYTES, in the words of the protocol's clients. */
  smallerBodies: string;
}

const lineProtocol = (answer: ErrorAnswer): AgentProtocol => ({
  answer: () => answer,
  smallerBodies:
    'compress it (Content-Encoding: gzip; Telegraf: content_encoding = "gzip") or send smaller batches ' +
    "(Telegraf: metric_batch_size)",
});

/** The agents' routes by their path without /v1 (nor a trailing slash). */
const agentProtocols: Record<string, AgentProtocol> = {
  "/write": lineProtocol(influxV1Error),
  "/query": lineProtocol(influxV1Error),
  "/api/v2/write": lineProtocol(influxV2Error),
  "/api/v1/write": {
    answer: () => remoteWriteError,
    smallerBodies: "send fewer samples at once (Prometheus: queue_config.max_samples_per_send)",
  },
  "/otlp/v1/metrics": {
    answer: (request) => statusAnswer(encodingOf(request.headers.get("content-type")) ?? "json"),
    smallerBodies:
      "compress it (OTEL_EXPORTER_OTLP_COMPRESSION=gzip) or export fewer points at once (the Collector's batch " +
      "processor: send_batch_max_size)",
  },
};

/**
 * The refusals made before an agent's route sees the request (no token or a wrong one, a body over
 * MAX_BODY_BYTES, an unknown query parameter), answered in the protocol's own shape like the
 * route's: its clients log that shape's message, and would show a problem document as a bare status.
 * A body over the limit is told the setting's name and how the protocol's clients send less.
 */
export const agentRefusals = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const { error } = c;
  if (!(error instanceof ApiError)) return;
  const protocol = agentProtocols[unversioned(c.req.path).replace(/\/$/, "")];
  if (!protocol) return;
  const restated =
    error.code === "payload-too-large"
      ? new ApiError(
          "payload-too-large",
          `The body is larger than MAX_BODY_BYTES (${c.get("config").MAX_BODY_BYTES} bytes); ${protocol.smallerBodies}.`,
          { headers: error.headers },
        )
      : error;
  // Unset first: a response set over another takes on its headers, the problem's length among them.
  c.res = undefined;
  c.res = protocol.answer(c.req.raw)(restated);
});
