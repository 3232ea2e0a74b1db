import { fewAtOnce } from "./few-at-once.ts";
import { type ObserverEndpoint, receiverHost } from "./receivers/receivers.ts";

/*
 * Selector observers (POST /observers with `match`) registered and removed through the service's
 * API, for the selectors section.
 */

/**
 * A request sent again once if its connection was closed under it: a kept-alive connection that
 * idled while a round held the Worker busy may be closed by the Worker just as the request goes out
 * on it. Both requests here may be made twice: a registration of the same observer answers the one
 * registered, and a removal done already answers 404.
 */
async function fetchAgainIfClosed(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fetch(url, init);
  }
}

/** Where an HTTP selector observer sends, and in which of the service's formats. */
type SelectorReceiver = Pick<ObserverEndpoint, "port"> & { readonly format: string };

/** Registers an HTTP observer at `receiver` of the data `match` selects; resolves with its id. */
export async function registerSelectorObserver(
  serviceUrl: string,
  match: readonly string[],
  receiver: SelectorReceiver,
): Promise<string> {
  const response = await fetchAgainIfClosed(`${serviceUrl}/v1/observers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      match,
      format: receiver.format,
      protocol: "HTTP",
      callbackUrl: `http://${receiverHost}:${receiver.port}/`,
    }),
  });
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(
      `registering a selector observer of ${match.join(" or ")}: ${response.status} ${await response.text()}`,
    );
  }
  return ((await response.json()) as { id: string }).id;
}

export async function removeSelectorObserver(serviceUrl: string, id: string): Promise<void> {
  const url = `${serviceUrl}/v1/observers/${encodeURIComponent(id)}`;
  const response = await fetchAgainIfClosed(url, { method: "DELETE" });
  await response.body?.cancel();
  if (response.status !== 204 && response.status !== 404) {
    throw new Error(`removing the selector observer ${id}: ${response.status}`);
  }
}

/** Registrations and removals made at once: each tells every metric's object, which a few at a time keep busy. */
const requestsAtOnce = 8;

/** Registers one selector observer per entry of `matches`; resolves with what removes them all. */
export async function registerSelectorObservers(
  serviceUrl: string,
  matches: readonly (readonly string[])[],
  receiver: SelectorReceiver,
): Promise<() => Promise<void>> {
  const ids = await fewAtOnce(matches, requestsAtOnce, (match) =>
    registerSelectorObserver(serviceUrl, match, receiver),
  );
  return async () => {
    await fewAtOnce(ids, requestsAtOnce, (id) => removeSelectorObserver(serviceUrl, id));
  };
}
