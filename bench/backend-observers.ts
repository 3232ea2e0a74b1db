import type { BackendReceiver } from "./backend-receiver.ts";
import { receiverHost } from "./receivers.ts";

/**
 * Registers an HTTP observer in the receiver's format of the data `match` selects (POST
 * /observers); resolves with what removes it again. The bench's older selector client takes the
 * formats of its own receivers only.
 */
export async function observeMatching(
  serviceUrl: string,
  match: readonly string[],
  receiver: BackendReceiver,
): Promise<() => Promise<void>> {
  const response = await fetch(`${serviceUrl}/v1/observers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      match,
      format: receiver.format,
      protocol: "HTTP",
      callbackUrl: `http://${receiverHost}:${receiver.port}/`,
    }),
  });
  if (response.status !== 201) {
    throw new Error(
      `registering a ${receiver.format} observer of ${match.join(" or ")}: ${response.status} ${await response.text()}`,
    );
  }
  const { id } = (await response.json()) as { id: string };
  return async () => {
    const removed = await fetch(`${serviceUrl}/v1/observers/${encodeURIComponent(id)}`, { method: "DELETE" });
    await removed.body?.cancel();
    if (removed.status !== 204) throw new Error(`removing the ${receiver.format} observer ${id}: ${removed.status}`);
  };
}
