import type { ApiError } from "../../../shared/problems";

/** Remote write's errors are plain text, which Prometheus logs as they are. */
export function remoteWriteError(error: ApiError): Response {
  return new Response(`${error.message}\n`, {
    status: error.status,
    headers: { ...error.headers, "content-type": "text/plain; charset=utf-8" },
  });
}
