/*
 * How much history a metric keeps, in a module of its own so that the request schemas (and the
 * dashboard, which reads their types) depend on these limits without the storage code.
 */

/** Attempts kept per observer: its attempt log is a ring of this many slots. */
export const attemptsKept = 1_000;

/** The most data GET /metrics/:id/data answers, and so the most a metric keeps. */
export const recentDataKept = 1_000;
