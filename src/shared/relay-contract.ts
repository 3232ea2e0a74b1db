import { z } from "zod";

/**
 * The HTTP contract between the Worker's delivery code and the Node relay:
 * `POST /v1/deliveries` with `Authorization: Bearer <RELAY_TOKEN>`, answered 200 with one result
 * per delivery (same ids), so that the Worker retries exactly the deliveries that failed.
 */
const destination = {
  /** Chosen by the Worker, echoed in the result. */
  id: z.string().min(1).max(200),
  host: z.string().min(1).max(253),
  port: z.number().int().min(1).max(65_535),
};

export const tcpDeliverySchema = z.strictObject({
  ...destination,
  protocol: z.literal("TCP"),
  /** Written as is on the destination's kept-open connection. */
  payload: z.string(),
});

export const udpDeliverySchema = z.strictObject({
  ...destination,
  protocol: z.literal("UDP"),
  /** Units that are never split across datagrams: one line, or one single-datum document. */
  records: z.array(z.string()).min(1),
  /** `lines`: as many whole records per datagram as fit; `one-per-datagram`: one record each. */
  packing: z.enum(["lines", "one-per-datagram"]),
});

export const relayDeliverySchema = z.discriminatedUnion("protocol", [tcpDeliverySchema, udpDeliverySchema]);

export const relayRequestSchema = z.strictObject({
  deliveries: z.array(relayDeliverySchema).min(1).max(1_000),
  /**
   * Milliseconds the Worker waits for this request: deliveries not done by then are answered
   * `pending` (they may still complete), so one slow destination cannot hold up the others.
   */
  deadlineMs: z.number().int().positive().max(3_600_000).optional(),
});

export const relayResultSchema = z.strictObject({
  id: z.string(),
  ok: z.boolean(),
  /** Bytes written (TCP) or sent (UDP) when ok. */
  bytes: z.number().int().nonnegative().optional(),
  /** Why it failed, when not ok. */
  error: z.string().optional(),
  /** Still under way at the request's deadline (not ok, not failed). */
  pending: z.boolean().optional(),
});

export const relayResponseSchema = z.strictObject({
  results: z.array(relayResultSchema),
});

export type TcpDelivery = z.infer<typeof tcpDeliverySchema>;
export type UdpDelivery = z.infer<typeof udpDeliverySchema>;
export type RelayDelivery = z.infer<typeof relayDeliverySchema>;
export type RelayResult = z.infer<typeof relayResultSchema>;
export type RelayResponse = z.infer<typeof relayResponseSchema>;

export const relayDeliveriesPath = "/v1/deliveries";
