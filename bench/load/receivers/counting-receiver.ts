import { createServer } from "node:http";
import { DatumTally } from "./datum-tally.ts";
import { listen, type ObserverEndpoint } from "./receivers.ts";

/** An HTTP observer in TOWER/JSON that counts what it receives datum by datum; `tally` may be replaced between cases. */
export interface CountingReceiver extends ObserverEndpoint {
  tally: DatumTally;
  close(): Promise<void>;
}

/**
 * An HTTP observer that answers 204 as soon as a payload is in, as the discarding receiver does,
 * and then counts its data in its current tally: where the Worker's own work is measured, the
 * receiver keeps nothing but which data came.
 */
export async function startCountingReceiver(): Promise<CountingReceiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const arrival = Date.now();
      response.writeHead(204).end();
      receiver.tally.record(Buffer.concat(chunks).toString("utf8"), arrival);
    });
  });
  const { port, close } = await listen(server, () => server.closeAllConnections());
  const receiver: CountingReceiver = { protocol: "HTTP", format: "TOWER/JSON", port, tally: new DatumTally(), close };
  return receiver;
}
