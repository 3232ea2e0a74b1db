import { ApiError } from "../../shared/problems";
import type { ObserverChangeResult, RetryNowResult } from "./observer-desk";
import type { ObserverReport } from "./observer-schema";

/*
 * What the API answers to the outcome of a change or a retry now, for a metric's observers and
 * selector observers alike; `unknown` is the not-found error of the route's kind of observer.
 */

/** The observer after a PATCH, or the error its outcome calls for. */
export function changedReport(result: ObserverChangeResult, unknown: () => ApiError): ObserverReport {
  switch (result.outcome) {
    case "unknown-observer":
      throw unknown();
    case "headers-not-http":
      throw ApiError.validation([{ path: "/headers", message: "Headers only apply to HTTP observers." }]);
    case "changed":
      return result.report;
  }
}

/** The observer once its retry started, or the error its outcome calls for. */
export function retryStartedReport(
  result: RetryNowResult,
  observerId: string,
  unknown: () => ApiError,
): ObserverReport {
  switch (result.outcome) {
    case "unknown-observer":
      throw unknown();
    case "held":
      throw new ApiError(
        "conflict",
        `The observer ${JSON.stringify(observerId)} is ${result.state}: nothing is sent to it until it is ` +
          'resumed (PATCH with {"state":"active"}), which tries its backlog at once.',
      );
    case "started":
      return result.report;
  }
}
