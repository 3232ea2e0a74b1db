import { jsonDouble } from "../../../shared/json-double";
import type { DatumRow } from "../../intake/datum";
import type { Serializer } from "./serializer";

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

/*
 * A payload is one JSON.stringify of plain objects of one shape rather than text put together
 * datum by datum: the engine writes them natively, numbers in their shortest round-trip form, with
 * less work than script concatenating strings.
 */
export const towerJsonSerializer: Serializer = {
  format: "TOWER/JSON",
  contentType: "application/json",
  packing: "one-per-datagram",
  payloads: (metric, rows) => (rows.length > 0 ? [JSON.stringify(rows.map((row) => towerElement(metric, row)))] : []),
  records: (metric, rows) => rows.map((row) => JSON.stringify([towerElement(metric, row)])),
};
