import { createApp } from "./app";
import { readConfig } from "./config";
import { consumeDeadLetters } from "./queue/dead-letter-consumer";
import { consumeDeliveries } from "./queue/delivery-consumer";
import { consumeIntake } from "./queue/intake-consumer";
import { usage } from "./usage";

export { KnowledgeBase } from "./durable-objects/knowledge-base";
export { MetricCatalog } from "./durable-objects/metric-catalog";
export { MetricObject } from "./durable-objects/metric";

const app = createApp();

/** Queue names as in wrangler.toml. */
const consumers: Record<string, (batch: MessageBatch<string>, env: Env) => Promise<void>> = {
  "tower-intake": (batch, env) => consumeIntake(batch, env, readConfig(env)),
  "tower-deliveries": (batch, env) => consumeDeliveries(batch, env, readConfig(env)),
  "tower-deliveries-dead": consumeDeadLetters,
};

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    const consume = consumers[batch.queue];
    if (!consume) throw new Error(`no consumer for queue ${batch.queue}`);
    usage.queueMessagesRead += batch.messages.length;
    await consume(batch as MessageBatch<string>, env);
  },
} satisfies ExportedHandler<Env>;
