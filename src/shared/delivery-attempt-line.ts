/** The `event` of the Worker's log line of each delivery attempt. */
export const deliveryAttemptEvent = "delivery.attempt";

/**
 * The Worker's log line of one delivery attempt: one JSON object on a line, `event` first, which
 * Workers Logs indexes field by field and the local launcher reads back to tell of failing
 * observers. These are the fields its readers rely on; the line carries the whole attempt report.
 */
export interface DeliveryAttemptLine {
  event: typeof deliveryAttemptEvent;
  metric: string;
  protocol: string;
  format: string;
  observerId: string;
  ok: boolean;
  /** The observer answered 410 Gone and is removed. */
  gone?: boolean;
  /** Not finished within the batch's budget: continued from the backlog, not a failure. */
  deferred?: boolean;
  error?: string;
  httpStatus?: number;
  /** How many data the attempt carried. */
  data: number;
  /** 1 for the first attempt at these data. */
  attempt: number;
}

/** The delivery attempt a line of the Worker's console reports, or undefined for any other line. */
export function readDeliveryAttemptLine(line: string): DeliveryAttemptLine | undefined {
  if (!line.startsWith(`{"event":"${deliveryAttemptEvent}"`)) return undefined;
  try {
    return JSON.parse(line) as DeliveryAttemptLine;
  } catch {
    return undefined;
  }
}
