import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/worker/index";
import { encodeIntakeMessages } from "../../../src/worker/intake/queue-message";
import type { Datum } from "../../../src/worker/vocabulary/datum";

let batches = 0;

/** Runs the Worker's queue handler on one tower-intake batch, its messages each group's data; answers what it did with them. */
export async function consumeGroups(groups: readonly Datum[][]) {
  const batch = createMessageBatch(
    "tower-intake",
    groups
      .flatMap((data) => encodeIntakeMessages(data))
      .map((body, index) => ({ id: `batch${++batches}-${index}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch, env, ctx);
  return getQueueResult(batch, ctx);
}
