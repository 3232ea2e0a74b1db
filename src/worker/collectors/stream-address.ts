import { splitPathToken } from "../http/path-token";
import { streamOf } from "./collector-configuration";

/**
 * Where a collector that asked by `requestUrl` sends its data: the public base (PUBLIC_URL behind a
 * proxy, else the request's own origin), then the token prefix the collector itself used, so that
 * its data are authenticated the way its registration was.
 */
export function streamBase(requestUrl: string, publicUrl: string): string {
  const url = new URL(requestUrl);
  const base = (publicUrl || url.origin).replace(/\/+$/, "");
  return base + splitPathToken(url.pathname).prefix;
}

/** The stream endpoint of `metric` under `base`: the original's stream name, percent-encoded as one segment. */
export function streamAddress(base: string, metric: string): string {
  return `${base}/streams/${encodeURIComponent(streamOf(metric))}`;
}
