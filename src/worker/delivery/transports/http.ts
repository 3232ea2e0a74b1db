import { env } from "cloudflare:workers";
import { countedFetch } from "../../common/usage";
import type { ObserverFormat } from "../../metrics/observer-kinds";
import { instanceId } from "../../ops/instance-id";
import { serviceVersion } from "../../ops/version";
import type { Delivery, DeliveryResult, MetricRun } from "../../vocabulary/delivery";
import { serializerFor } from "../formats";
import type { PayloadBody, Serializer } from "../formats/serializer";
import { halvesOfRuns, runsData } from "../metric-runs";
import { retryAfterSeconds } from "../retry-schedule";
import { describeNetworkError } from "./network-failure";
import { rejectedDataPoints } from "./otlp-partial-success";
import { viaHeaderName, viaHeaderValue } from "./via-header";
import { signWebhook } from "./webhook-signature";

/**
 * Why a request ended without an answer: the batch stopped waiting for it first, the observer never
 * answered, or it could not be reached.
 */
function describeFailure(
  error: unknown,
  callbackUrl: string,
  timeoutMs: number,
  batchWait: AbortSignal | undefined,
): Partial<DeliveryResult> {
  if (batchWait?.aborted)
    return { deferred: true, error: "not answered within the batch's budget; continued from the backlog" };
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return { error: `no answer within ${timeoutMs} ms` };
  }
  return { error: describeNetworkError(error, callbackUrl) };
}

/** What one request came to; `tooLarge` asks for smaller payloads (a backend's 413). */
type Answer = Omit<DeliveryResult, "delivery" | "latencyMs"> & { tooLarge?: boolean };

/** The most of a backend's answer kept as the reason its data were refused. */
const reasonCharacters = 512;

/** What a metrics backend's answer means for the data (docs/API.md, "Outputs for metric backends"). */
async function backendAnswer(response: Response, format: ObserverFormat): Promise<Answer | undefined> {
  const httpStatus = response.status;
  if (httpStatus >= 200 && httpStatus < 300 && (format === "OTLP" || format === "OTLP/JSON")) {
    const rejected = rejectedDataPoints(new Uint8Array(await response.arrayBuffer()), format);
    return { ok: true, httpStatus, ...(rejected > 0 ? { rejected } : {}) };
  }
  if (httpStatus === 400 || httpStatus === 409 || httpStatus === 422) {
    const reason = (await response.text()).slice(0, reasonCharacters).trim();
    const error = `HTTP ${httpStatus} from the observer${reason === "" ? "" : `: ${reason}`}`;
    return { ok: false, httpStatus, refused: true, error };
  }
  if (httpStatus === 413) {
    await response.body?.cancel();
    return { ok: false, httpStatus, tooLarge: true, error: "HTTP 413 from the observer: the payload is too large" };
  }
  return undefined;
}

/** The answer as webhooks are read: 2xx delivered, 410 gone, anything else retried (429 and 503 after their Retry-After). */
async function webhookAnswer(response: Response): Promise<Answer> {
  await response.body?.cancel();
  const httpStatus = response.status;
  if (httpStatus >= 200 && httpStatus < 300) return { ok: true, httpStatus };
  const waitSeconds =
    httpStatus === 429 || httpStatus === 503
      ? retryAfterSeconds(response.headers.get("retry-after"), Date.now())
      : undefined;
  return {
    ok: false,
    httpStatus,
    gone: httpStatus === 410,
    error: `HTTP ${httpStatus} from the observer`,
    ...(waitSeconds === undefined ? {} : { retryAfterSeconds: waitSeconds }),
  };
}

async function send(
  delivery: Delivery,
  body: PayloadBody | undefined,
  serializer: Serializer,
  via: string,
  timeoutMs: number,
  batchWait: AbortSignal | undefined,
): Promise<Answer> {
  const { target, webhookId } = delivery;
  const headers: Record<string, string> = {
    ...target.headers,
    ...(body === undefined ? {} : { "content-type": serializer.contentType, ...serializer.headers }),
    "user-agent": `tower-edge/${serviceVersion}`,
    // Every delivery carries its id, signed or not, so any receiver can drop a repeated one.
    "webhook-id": webhookId,
    // The services the data passed through, so that one that meets its own id refuses the loop.
    [viaHeaderName]: via,
  };
  if (target.secrets.length > 0) {
    Object.assign(headers, await signWebhook(target.secrets, webhookId, Math.floor(Date.now() / 1000), body ?? ""));
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    // Redirects are not followed: a 3xx could point the service at an address the observer checks refused.
    const response = await countedFetch(target.callbackUrl!, {
      method: target.method ?? "POST",
      ...(body === undefined ? {} : { body }),
      headers,
      redirect: "manual",
      signal: batchWait ? AbortSignal.any([timeout, batchWait]) : timeout,
    });
    const backend = serializer.answers === "backend" ? await backendAnswer(response, target.format) : undefined;
    return backend ?? (await webhookAnswer(response));
  } catch (error) {
    return { ok: false, ...describeFailure(error, target.callbackUrl!, timeoutMs, batchWait) };
  }
}

/**
 * The requests of a delivery's `runs`: the format's payload(s), or for a rule's REST call one
 * request per datum, without a body for GET and DELETE.
 */
function requestBodies(
  delivery: Delivery,
  runs: readonly MetricRun[],
  serializer: Serializer,
): (PayloadBody | undefined)[] {
  const { target } = delivery;
  if (target.method === undefined) return serializer.payloads(runs, target.labels);
  return runs.flatMap(([metric, rows]) =>
    target.method === "GET" || target.method === "DELETE"
      ? rows.map(() => undefined)
      : rows.flatMap((row) => serializer.payloads([[metric, [row]]])),
  );
}

/** Sends requests of `runs` until one is not a success; a payload too large is sent again in halves, at once. */
async function sendRuns(
  delivery: Delivery,
  runs: readonly MetricRun[],
  send: (body: PayloadBody | undefined) => Promise<Answer>,
  serializer: Serializer,
): Promise<Answer> {
  let last: Answer = { ok: true };
  for (const body of requestBodies(delivery, runs, serializer)) {
    if (body?.length === 0) continue;
    last = await send(body);
    if (last.tooLarge) {
      if (runsData(runs) === 1) return { ...last, tooLarge: false, refused: true };
      const [first, second] = halvesOfRuns(runs);
      last = await sendRuns(delivery, first, send, serializer);
      return last.ok ? sendRuns(delivery, second, send, serializer) : last;
    }
    if (!last.ok) break;
  }
  return last;
}

/**
 * Sends the delivery's payload(s) to the observer's callbackUrl; it succeeds only if every request
 * got a 2xx. With `answerWaitMs`, the delivery is cut (deferred) when it is not done that long after
 * it started.
 */
export async function deliverOverHttp(
  delivery: Delivery,
  timeoutMs: number,
  answerWaitMs?: number,
): Promise<DeliveryResult> {
  const via = viaHeaderValue(delivery.via ?? [], await instanceId(env));
  const started = Date.now();
  const batchWait = answerWaitMs === undefined ? undefined : AbortSignal.timeout(answerWaitMs);
  const serializer = serializerFor(delivery.target.format);
  // Data points rejected by every request of the delivery (OTLP's partialSuccess), halves included.
  let rejected = 0;
  const sendCounting = async (body: PayloadBody | undefined) => {
    const answer = await send(delivery, body, serializer, via, timeoutMs, batchWait);
    rejected += answer.rejected ?? 0;
    return answer;
  };
  const { tooLarge: _, rejected: __, ...answer } = await sendRuns(delivery, delivery.runs, sendCounting, serializer);
  return { delivery, ...answer, ...(rejected > 0 ? { rejected } : {}), latencyMs: Date.now() - started };
}
