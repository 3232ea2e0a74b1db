/** The status of an observer nothing was delivered to yet, as GET …/observers/:oid shows it. */
export const noDeliveriesYet = {
  acknowledgement: "acknowledged" as const,
  delivered: 0,
  failed: 0,
  dead: 0,
  dropped: 0,
  rejected: 0,
  lost: 0,
  backlog: 0,
  oldestBacklogAt: null,
  nextAttemptAt: null,
  lastSuccessAt: null,
  lastFailureAt: null,
  lastError: null,
};

/** The same of a UDP observer, whose deliveries nothing acknowledges. */
export const noDatagramsSentYet = { ...noDeliveriesYet, acknowledgement: "sent-unacknowledged" as const };
