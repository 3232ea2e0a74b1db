import type { DatumRow } from "../../intake/datum";
import type { Serializer } from "./serializer";

/** JSON.rawJSON (ES2025): V8 has it; TypeScript's es2024 library does not declare it yet. */
const rawJson = (JSON as JSON & { rawJSON(text: string): unknown }).rawJSON.bind(JSON);

/** JSON.stringify writes negative zero as `0`; the formats promise `-0`. */
const negativeZero = rawJson("-0");

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
    value: typeof value !== "number" ? null : Object.is(value, -0) ? negativeZero : value,
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
