import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { StoredSeries } from "./stored-series.ts";

/** A gauge series the target exposes: its name and own labels (`job` and `instance` are the scraper's). */
export interface TargetGauge {
  name: string;
  labels: Record<string, string>;
}

/**
 * A Prometheus scrape target whose every sample is known: a fixed number of scrapes, each with
 * its own time (an explicit timestamp, which the scraper keeps) and values; later scrapes answer
 * an empty exposition, so that once all of them arrived somewhere, nothing more comes.
 */
export interface ScrapeTarget {
  /** host:port, the `instance` label the scraper gives its series. */
  readonly address: string;
  /** How many of the scrapes were served so far. */
  served(): number;
  /** The series served, with the scraper's `job` and `instance` labels and `__name__`. */
  series(job: string): StoredSeries[];
  close(): Promise<void>;
}

/** Distinct per scrape and gauge, negative for every other gauge, exact in every backend's storage. */
const sampleValue = (scrape: number, gauge: number) => (gauge % 2 === 0 ? 1 : -1) * (scrape * 1_000 + gauge + 0.25);

/** A label value in the text exposition format: backslash, double quote and newline escaped. */
const exposedValue = (value: string) => value.replace(/[\\"\n]/g, (found) => (found === "\n" ? "\\n" : `\\${found}`));

function exposition(gauges: readonly TargetGauge[], scrape: number, timestamp: number): string {
  return gauges
    .map(({ name, labels }, index) => {
      const pairs = Object.entries(labels).map(([label, value]) => `${label}="${exposedValue(value)}"`);
      return `${name}{${pairs.join(",")}} ${sampleValue(scrape, index)} ${timestamp}\n`;
    })
    .join("");
}

export async function startScrapeTarget(gauges: readonly TargetGauge[], scrapes: number): Promise<ScrapeTarget> {
  const times: number[] = [];
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    if (times.length === scrapes) {
      response.end();
      return;
    }
    // Strictly increasing, even for two scrapes within a millisecond.
    const timestamp = Math.max(Date.now(), (times.at(-1) ?? 0) + 1);
    times.push(timestamp);
    response.end(exposition(gauges, times.length, timestamp));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    address,
    served: () => times.length,
    series: (job) =>
      gauges.map(({ name, labels }, index) => ({
        labels: { ...labels, __name__: name, job, instance: address },
        samples: times.map((timestamp, scrape) => [timestamp, sampleValue(scrape + 1, index)]),
      })),
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
