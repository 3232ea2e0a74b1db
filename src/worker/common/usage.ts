/**
 * Platform operations this isolate has spent, counted where they are made (not estimated), so
 * that the cost per accepted datum can be measured: `GET /v1/usage`, read by `npm run bench`.
 * Counts are per isolate and reset when it restarts; a deployment has many isolates.
 */
/** The ways data come in, each counted on its own. */
export const intakeRoutes = [
  "/monitoringdata",
  "/write",
  "/api/v2/write",
  "/api/v1/write",
  "/otlp/v1/metrics",
  "/streams",
] as const;
export type IntakeRoute = (typeof intakeRoutes)[number];

/** What one way in did with what it was sent. */
export interface RouteCounts {
  dataAccepted: number;
  /** Lines (line protocol), series (remote write) or data points (OTLP) refused while the rest was accepted. */
  refused: number;
  /** String values that are no number (line-protocol string fields, the data collectors' strings): no data. */
  stringFieldsSkipped: number;
  /** Prometheus stale markers, which mark a series' end, not a value. */
  staleMarkersSkipped: number;
}

/** The Durable Object bindings whose requests are counted, each on its own. */
export const countedBindings = [
  "METRIC",
  "SELECTOR_OBSERVER",
  "SUMMARY_SHARD",
  "RULE",
  "RULE_REGISTRY",
  "COLLECTOR_REGISTRY",
  "KNOWLEDGE_BASE",
] as const;
export type CountedBinding = (typeof countedBindings)[number];

const noCounts = (): RouteCounts => ({ dataAccepted: 0, refused: 0, stringFieldsSkipped: 0, staleMarkersSkipped: 0 });

export const usage = {
  since: new Date().toISOString(),
  dataAccepted: 0,
  durableObjectRequests: 0,
  durableObjectRequestsByBinding: Object.fromEntries(countedBindings.map((binding) => [binding, 0])) as Record<
    CountedBinding,
    number
  >,
  queueMessagesWritten: 0,
  queueMessagesRead: 0,
  outboundRequests: 0,
  /** Data written to observers' backlogs: only what an observer did not take at once. */
  backlogDataWritten: 0,
  intake: Object.fromEntries(intakeRoutes.map((route) => [route, noCounts()])) as Record<IntakeRoute, RouteCounts>,
};

/** A Durable Object stub of `binding` whose every RPC call is counted as one Durable Object request. */
export function countingRequests<Stub extends object>(stub: Stub, binding: CountedBinding): Stub {
  return new Proxy(stub, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property);
      if (typeof member !== "function") return member;
      // Reflect.apply, not member.apply: on an RPC stub, `apply` would name a remote method.
      return (...args: unknown[]) => {
        usage.durableObjectRequests += 1;
        usage.durableObjectRequestsByBinding[binding] += 1;
        return Reflect.apply(member, target, args);
      };
    },
  });
}

/** `fetch`, counted as one outbound request. */
export function countedFetch(...request: Parameters<typeof fetch>): Promise<Response> {
  usage.outboundRequests += 1;
  return fetch(...request);
}
