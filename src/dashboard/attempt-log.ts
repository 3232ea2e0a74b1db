import type { Attempt } from "./api-types";
import { badgeCell } from "./cells";
import { formatCount, formatMoment } from "./format";
import { type Table, table } from "./table";

/** How many of an observer's latest attempts its page shows. */
export const attemptsShown = 20;

/** An observer's latest delivery attempts, newest first, in a frame that scrolls past a height. */
export function attemptLog(target: string): Table<Attempt> {
  return table<Attempt>({
    label: `Attempt log of ${target}`,
    keyOf: (attempt) => `${attempt.webhookId}/${attempt.attempt}/${attempt.at}`,
    empty: "No attempts yet.",
    bounded: true,
    columns: [
      { label: "Time", width: "13%", text: (attempt) => formatMoment(attempt.at) },
      {
        label: "Result",
        width: "14%",
        view: badgeCell((attempt) => (attempt.ok ? ["Delivered", "ok"] : ["Failed", "danger"])),
      },
      { label: "Attempt", width: "10%", numeric: true, text: (attempt) => String(attempt.attempt) },
      {
        label: "HTTP",
        width: "8%",
        numeric: true,
        text: (attempt) => (attempt.httpStatus === undefined ? "—" : String(attempt.httpStatus)),
      },
      { label: "Data", width: "9%", numeric: true, text: (attempt) => formatCount(attempt.data) },
      { label: "Latency", width: "11%", numeric: true, text: (attempt) => `${formatCount(attempt.latencyMs)} ms` },
      { label: "Error", width: "35%", text: (attempt) => attempt.error ?? "" },
    ],
  });
}
