import { createServer } from "node:http";
import { type BackendBenchFormat, deliveredValues } from "./backend-payloads.ts";
import { listen } from "./receivers.ts";
import { SampleTally } from "./sample-tally.ts";

/** A no-op metrics backend for one format, counting in `tally` (which may be replaced between rounds) what it gets. */
export interface BackendReceiver {
  readonly format: BackendBenchFormat;
  readonly port: number;
  tally: SampleTally;
  close(): Promise<void>;
}

/**
 * An HTTP receiver that answers as soon as a payload is in, as a backend that queues what it gets
 * would (204; OTLP an empty ExportMetricsServiceResponse, 200), then reads the payload's values
 * into its current tally: it keeps nothing but which samples came.
 */
export async function startBackendReceiver(format: BackendBenchFormat): Promise<BackendReceiver> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const arrival = Date.now();
      if (format === "OTLP") response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      else response.writeHead(204).end();
      receiver.tally.record(deliveredValues(format, Buffer.concat(chunks)), arrival);
    });
  });
  const { port, close } = await listen(server, () => server.closeAllConnections());
  const receiver: BackendReceiver = { format, port, tally: new SampleTally(), close };
  return receiver;
}
