import { createApp } from "./app";
import { usage } from "./common/usage";
import { readConfig } from "./config";
import { consumeIntake } from "./delivery/intake-consumer";

export { CollectorRegistry } from "./collectors/collector-registry";
export { MetricCatalog } from "./metrics/metric-catalog";
export { MetricObject } from "./metrics/metric-object";
export { KnowledgeBase } from "./model/knowledge-base";
export { SelectorObserverObject } from "./observers/selector-observer-object";
export { RuleObject } from "./rules/rule-object";
export { RuleRegistry } from "./rules/rule-registry";
export { SummaryShard } from "./summary/summary-shard";

const app = createApp();

/** Queue names as in wrangler.toml. */
const consumers: Record<string, (batch: MessageBatch, env: Env) => Promise<void>> = {
  "tower-intake": (batch, env) => consumeIntake(batch, env, readConfig(env)),
};

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    const consume = consumers[batch.queue];
    if (!consume) throw new Error(`no consumer for queue ${batch.queue}`);
    usage.queueMessagesRead += batch.messages.length;
    await consume(batch, env);
  },
} satisfies ExportedHandler<Env>;
