/**
 * How many times its latest answer time an observer that answered may take before a batch takes it
 * for hung: enough that an observer merely slowed by load is rarely cut (each cut may send it the
 * payload twice), few enough that a hang is seen long before the budget ends.
 */
const slowdownTolerated = 10;

/**
 * The shortest wait, as a part of the budget: an observer that answers in a few milliseconds is
 * still given time for a pause of the machine or of the network before it is taken for hung.
 */
const shortestWaitPartOfBudget = 8;

/**
 * How long a batch waits for an observer's answer before it abandons the request and leaves the
 * payload to the observer's backlog. Every request of the batch holds up the whole batch, hence
 * every other observer's next data (a consumer handles one batch at a time), and one of six
 * connections; so an observer is given time by what it is known to need. One whose latest attempt
 * succeeded is expected to answer about as fast again: when it does not, it has most likely begun
 * to hang, and it is let go as soon as that is clear rather than at the end of the budget. One
 * without such an answer (new, failing, or slow) gets the whole budget.
 */
export function answerWaitMs(answeredInMs: number | undefined, budgetMs: number): number {
  if (answeredInMs === undefined) return budgetMs;
  return Math.min(budgetMs, Math.max(budgetMs / shortestWaitPartOfBudget, answeredInMs * slowdownTolerated));
}
