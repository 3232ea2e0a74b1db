import { createApp } from "./app";
import { usage } from "./common/usage";
import { readConfig } from "./config";
import { consumeIntake } from "./delivery/intake-consumer";
import { consumingBatch } from "./ops/drain";
import { earlyHealthAnswer } from "./ops/early-health-answer";
import { collectGarbageNowAndThen } from "./ops/garbage-collection";

export { CollectorRegistry } from "./collectors/collector-registry";
export { IntakeJournal } from "./intake/journal/intake-journal";
export { MetricCatalog } from "./metrics/metric-catalog";
export { MetricObject } from "./metrics/metric-object";
export { KnowledgeBase } from "./model/knowledge-base";
export { SelectorObserverObject } from "./observers/selector-observer-object";
export { RuleObject } from "./rules/rule-object";
export { RuleRegistry } from "./rules/rule-registry";

const app = createApp();

/** Queue names as in wrangler.toml. */
const consumers: Record<string, (batch: MessageBatch, env: Env) => Promise<void>> = {
  "tower-intake": (batch, env) => consumeIntake(batch, env, readConfig(env)),
};

export default {
  fetch(request, env, context) {
    collectGarbageNowAndThen();
    return earlyHealthAnswer(request, env) ?? app.fetch(request, env, context);
  },
  async queue(batch, env) {
    collectGarbageNowAndThen();
    const consume = consumers[batch.queue];
    if (!consume) throw new Error(`no consumer for queue ${batch.queue}`);
    usage.queueMessagesRead += batch.messages.length;
    await consumingBatch(() => consume(batch, env));
  },
} satisfies ExportedHandler<Env>;
