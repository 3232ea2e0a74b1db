import { ruleRegistry } from "../rules/rule-registry";

/**
 * Rules keep a snapshot of the model; after a change they read it again. The change itself is
 * stored either way, so a failure to tell them is logged rather than answered as an error.
 */
export async function tellRulesTheModelChanged(env: Env): Promise<void> {
  try {
    await ruleRegistry(env).modelChanged();
  } catch (error) {
    console.error("the model changed, but the rules were not told:", error instanceof Error ? error.message : error);
  }
}
