import { jsonDouble } from "../../common/json-double";
import type { DatumRow } from "../../vocabulary/datum";
import type { MetricRun } from "../../vocabulary/delivery";
import type { StreamSerializer } from "./serializer";

/**
 * `{"resourceId","metric","value","timestamp"}`, the original system's TOWER/JSON element. JSON
 * has no NaN or infinities: such a value is written as null, as JSON.stringify does, so the datum
 * still arrives with its resource, metric and time, a receiver's JSON parser does not fail on the
 * whole array, and "value" never holds a string where receivers expect a number.
 */
function towerElement(metric: string, row: DatumRow) {
  const value = row[2];
  return {
    resourceId: row[3],
    metric,
    value: typeof value !== "number" ? null : jsonDouble(value),
    timestamp: row[1],
  };
}

function towerElements(runs: readonly MetricRun[]) {
  return runs.flatMap(([metric, rows]) => rows.map((row) => towerElement(metric, row)));
}

/*
 * A payload is one JSON.stringify of plain objects of one shape rather than text put together
 * datum by datum: the engine writes them natively, numbers in their shortest round-trip form, with
 * less work than script concatenating strings.
 */
export const towerJsonSerializer: StreamSerializer = {
  format: "TOWER/JSON",
  contentType: "application/json",
  headers: {},
  answers: "webhook",
  packing: "one-per-datagram",
  payloads: (runs) => {
    const elements = towerElements(runs);
    return elements.length > 0 ? [JSON.stringify(elements)] : [];
  },
  records: (runs) => towerElements(runs).map((element) => JSON.stringify([element])),
};
