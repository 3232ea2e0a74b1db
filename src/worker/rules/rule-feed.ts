import { metricStub } from "../metrics/metric-object";
import { type FedMessage, ruleStub } from "./rule-object";

/**
 * Gives a batch's data of `metric` to each enabled rule that reads it: one request per rule and
 * batch, never per datum. A reader whose rule no longer exists (an installation that failed half
 * way) is removed from the metric. Rejects if a rule could not take the data: the batch's messages
 * then come again, and each rule skips the ones it already took.
 */
export async function feedRules(
  env: Env,
  metric: string,
  ruleReaders: readonly string[],
  messages: readonly FedMessage[],
): Promise<void> {
  if (ruleReaders.length === 0 || messages.length === 0) return;
  await Promise.all(
    ruleReaders.map(async (ruleId) => {
      const outcome = await ruleStub(env, ruleId).feed(metric, messages);
      if (outcome === "unknown-rule") await metricStub(env, metric).removeRuleReader(ruleId);
    }),
  );
}
