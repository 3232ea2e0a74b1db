/*
 * What a request that got no answer says about its observer. The runtime words its failures for
 * its own logs: a port where nothing listens reads "Network connection lost.", a name that does
 * not resolve or an answer that is not HTTP "internal error; reference = …". An operator reading
 * an observer's lastError needs the cause in the observer's terms, and what to look at.
 */

/** workerd's words for a connection that was refused, or closed before any answer came. */
const connectionLost = /^network connection lost\.?$/i;
/** workerd's words for a failure it logs but does not describe to the Worker. */
const internalError = /^internal error; reference = /i;

/** `host:port` of a URL, with the scheme's port when it names none. */
function addressOf(url: string): string {
  const { host, port, protocol } = new URL(url);
  return port ? host : `${host}:${protocol === "https:" ? 443 : 80}`;
}

/** The lastError of an HTTP delivery to `callbackUrl` that failed with `error` before an answer. */
export function describeNetworkError(error: unknown, callbackUrl: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const address = addressOf(callbackUrl);
  if (connectionLost.test(message)) {
    return `connection refused or closed before an answer: is the receiver running and listening at ${address}?`;
  }
  if (internalError.test(message)) {
    return `no HTTP answer from ${address}: its name did not resolve, or what answered does not speak HTTP`;
  }
  return `network error reaching ${address}: ${message}`;
}
