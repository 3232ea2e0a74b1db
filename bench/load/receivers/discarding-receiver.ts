import { createServer } from "node:http";
import { listen, type ObserverEndpoint } from "./receivers.ts";

/**
 * An HTTP observer that answers 204 at once and reads nothing of what it gets: where the Worker's
 * own work is measured, a receiver's should take as little of the machine as it can.
 */
export async function startDiscardingReceiver(
  format: ObserverEndpoint["format"],
): Promise<ObserverEndpoint & { close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  const { port, close } = await listen(server, () => server.closeAllConnections());
  return { protocol: "HTTP", format, port, close };
}
