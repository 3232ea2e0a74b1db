import { ApiError } from "../../../shared/problems";
import type { LinePrecision } from "./parser";

/** The 1.x API's precisions, its short spellings included. */
const v1Precisions: Record<string, LinePrecision> = {
  ns: "ns",
  n: "ns",
  us: "us",
  u: "us",
  ms: "ms",
  s: "s",
  m: "m",
  h: "h",
};

/** The 2.x API's precisions. */
const v2Precisions: Record<string, LinePrecision> = { ns: "ns", us: "us", ms: "ms", s: "s" };

function readPrecision(table: Record<string, LinePrecision>, given: string | undefined): LinePrecision {
  if (given === undefined || given === "") return "ns";
  const precision = Object.hasOwn(table, given) ? table[given] : undefined;
  if (precision === undefined) {
    throw new ApiError(
      "validation-failed",
      `precision ${JSON.stringify(given)} is not one of ${Object.keys(table).join(", ")}; nothing was accepted.`,
    );
  }
  return precision;
}

export const v1Precision = (given: string | undefined) => readPrecision(v1Precisions, given);
export const v2Precision = (given: string | undefined) => readPrecision(v2Precisions, given);
export const v1PrecisionNames = Object.keys(v1Precisions);
export const v2PrecisionNames = Object.keys(v2Precisions);
