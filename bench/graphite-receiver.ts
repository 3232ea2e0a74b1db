import { createServer } from "node:http";

/**
 * An HTTP observer for the benchmark. It is sent GRAPHITE lines whose resource id is the datum's
 * sequence number and whose value is the time (ms) the datum was posted, so each arrival yields
 * the datum's latency without any clock but this machine's.
 */
export interface LatencyReceiver {
  url: string;
  /** Latency in ms of each first arrival of a datum. */
  latencies: number[];
  /** Distinct data received. */
  readonly distinct: number;
  duplicates: number;
  lastArrival: number;
  close(): Promise<void>;
}

export function recordGraphiteLines(text: string, receiver: LatencyReceiver, seen: Set<string>, now: number): void {
  for (const line of text.split("\n")) {
    if (line.length === 0) continue;
    const [path, value] = line.split(" ");
    const sequence = path!.slice(0, path!.indexOf("."));
    if (seen.has(sequence)) {
      receiver.duplicates += 1;
      continue;
    }
    seen.add(sequence);
    receiver.latencies.push(now - Number(value));
  }
  receiver.lastArrival = now;
}

export async function startLatencyReceiver(): Promise<LatencyReceiver> {
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      recordGraphiteLines(Buffer.concat(chunks).toString("utf8"), receiver, seen, Date.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  const receiver: LatencyReceiver = {
    url: `http://127.0.0.1:${address.port}`,
    latencies: [],
    get distinct() {
      return seen.size;
    },
    duplicates: 0,
    lastArrival: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
