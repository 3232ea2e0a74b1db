import type { Config } from "../config";

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential from the base, capped,
 * with "equal jitter" (half fixed, half random) so that observers failing together do not retry
 * in lockstep.
 */
export function retryDelaySeconds(attempt: number, config: Config, random: () => number = Math.random): number {
  const ceiling = Math.min(config.RETRY_MAX_DELAY_SECONDS, config.RETRY_BASE_DELAY_SECONDS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
