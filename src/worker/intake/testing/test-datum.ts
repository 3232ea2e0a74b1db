import type { Datum, SeriesLabels } from "../../vocabulary/datum";

/** A datum for the intake's tests, with labels only when given (as intake makes them). */
export function datum(
  id: string,
  metric: string,
  value = 1,
  resourceId = "vm1",
  timestamp = 1000,
  labels?: SeriesLabels,
): Datum {
  return labels === undefined
    ? { id, metric, timestamp, value, resourceId }
    : { id, metric, timestamp, value, resourceId, labels };
}
