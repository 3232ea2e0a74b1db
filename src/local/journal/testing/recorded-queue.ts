import { env } from "cloudflare:workers";
import { vi } from "vitest";

/**
 * Makes the intake queue binding of `env` record what is sent to it, each call's bodies, instead of
 * sending: what the journal sends must not reach the test runtime's consumer. `vi.restoreAllMocks`
 * ends it.
 */
export function recordIntakeQueue(): unknown[][] {
  const sent: unknown[][] = [];
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  vi.spyOn(env.INTAKE_QUEUE, "send").mockImplementation(async (body) => {
    sent.push([body]);
    return { metadata };
  });
  vi.spyOn(env.INTAKE_QUEUE, "sendBatch").mockImplementation(async (messages) => {
    sent.push([...messages].map((message) => message.body));
    return { metadata };
  });
  return sent;
}
