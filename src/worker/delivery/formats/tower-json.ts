import type { Datum } from "../../intake/datum";
import { formatDouble } from "./number-format";
import type { Serializer } from "./serializer";

/*
 * JSON has no NaN or infinities. Such a value is written as null, as JSON.stringify does: the datum
 * still arrives with its resource, metric and time, a receiver's JSON parser does not fail on the
 * whole array, and "value" never holds a string where receivers expect a number.
 */
const jsonNonFinite = { nan: "null", infinity: "null", negativeInfinity: "null" };

/** `{"resourceId","metric","value","timestamp"}`, the original system's TOWER/JSON element. */
function towerObject(datum: Datum): string {
  const resourceId = JSON.stringify(datum.resourceId);
  const metric = JSON.stringify(datum.metric);
  const value = formatDouble(datum.value, jsonNonFinite);
  return `{"resourceId":${resourceId},"metric":${metric},"value":${value},"timestamp":${datum.timestamp}}`;
}

export const towerJsonSerializer: Serializer = {
  format: "TOWER/JSON",
  contentType: "application/json",
  packing: "one-per-datagram",
  payloads: (data) => (data.length > 0 ? [`[${data.map(towerObject).join(",")}]`] : []),
  records: (data) => data.map((datum) => `[${towerObject(datum)}]`),
};
