import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, type ReceivedRequest, startHttpReceiver } from "../support/http-receiver.ts";
import { hasPrometheus, type PrometheusAgent, startPrometheusAgent } from "../support/prometheus-agent.ts";
import { eventually, type Service, startService } from "../support/service.ts";
import type { TowerDatum } from "../support/tower-observer.ts";

/*
 * Debian's Prometheus in agent mode scrapes, every second, a target with many metric names and
 * remote-writes them to the service; ONE observer that follows a selector must get every matching
 * sample of every name (also of a name that appears while it runs), nothing else, each series'
 * samples in scrape order, in one payload per batch whatever the names.
 */

if (!hasPrometheus) {
  console.warn("Prometheus selector tests skipped: no /usr/bin/prometheus (.ci/run installs Debian's prometheus).");
}

const job = "selector";
/** Scrapes the same names from the same target: the selector's `job` matcher must leave them out. */
const otherJob = "selector-other";
const gaugeNames = Array.from({ length: 60 }, (_, index) => `tower_sel_metric_${index + 1}`);
const lateName = "tower_sel_late_metric";
/** Names the selector must not match: another name, a longer prefix, the prefix not at the start. */
const unmatchedNames = ["other_metric", "tower_selection_total", "other_tower_sel_metric"];
const names = [...gaugeNames, lateName, ...unmatchedNames];
const shards = [0, 1, 2];
const chosen = { name: "tower_sel_metric_17", shard: 1 };

/**
 * A sample's value: the scrape's number (per target path) times 1000 plus its series' code, unique
 * per name and shard, so that each value tells which scrape and which series it came from.
 */
const seriesCode = (name: string, shard: number) => names.indexOf(name) * shards.length + shard;
const sampleValue = (scrape: number, name: string, shard: number) => scrape * 1_000 + seriesCode(name, shard);
const scrapeOf = (value: number) => Math.floor(value / 1_000);

/** A scrape target that counts its scrapes per path, and exposes the late name once asked to. */
interface Target {
  server: Server;
  address: string;
  /** From the next scrape of each path on, the late name is exposed too. */
  exposeLateName(): void;
  /** The number of the first scrape of `path` that exposed the late name. */
  lateSince(path: string): number | undefined;
}

function exposition(scrape: number, withLateName: boolean): string {
  const exposed = names.filter((name) => name !== lateName || withLateName);
  return `${exposed
    .flatMap((name) => [
      `# TYPE ${name} gauge`,
      ...shards.map((shard) => `${name}{shard="${shard}"} ${sampleValue(scrape, name, shard)}`),
    ])
    .join("\n")}\n`;
}

async function serveTarget(): Promise<Target> {
  const scrapes = new Map<string, number>();
  const lateSince = new Map<string, number>();
  let lateWanted = false;
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    const scrape = (scrapes.get(path) ?? 0) + 1;
    scrapes.set(path, scrape);
    if (lateWanted && !lateSince.has(path)) lateSince.set(path, scrape);
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    response.end(exposition(scrape, lateSince.has(path)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    exposeLateName: () => {
      lateWanted = true;
    },
    lateSince: (path) => lateSince.get(path),
  };
}

let service: Service;
let receiver: HttpReceiver;
let target: Target;
let agent: PrometheusAgent | undefined;

const dataOf = (requests: readonly ReceivedRequest[]): TowerDatum[] =>
  requests.flatMap((request) => JSON.parse(request.body) as TowerDatum[]);
const received = () => dataOf(receiver.received);
const seriesOf = (data: readonly TowerDatum[], name: string, shard: number) =>
  data.filter(
    ({ metric, resourceId }) => metric === name && resourceId === `${target.address},job=${job},shard=${shard}`,
  );

/** `eventually`, its failure naming what Prometheus logged (why nothing arrived, if it did not). */
async function eventuallyFromAgent<T>(check: () => T, what: string, timeoutMs: number) {
  try {
    return await eventually(check, timeoutMs, { what, intervalMs: 200 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; Prometheus logged:\n${agent?.log()}`);
  }
}

beforeAll(async () => {
  if (!hasPrometheus) return;
  service = await startService();
  receiver = await startHttpReceiver();
  const registered = await service.call("POST", "/observers", {
    match: [`{__name__=~"tower_sel_.*",job="${job}"}`],
    format: "TOWER/JSON",
    protocol: "HTTP",
    callbackUrl: receiver.url,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  target = await serveTarget();
  agent = await startPrometheusAgent({
    jobs: [
      { name: job, target: target.address },
      { name: otherJob, target: target.address, metricsPath: "/other" },
    ],
    remoteWriteUrl: `${service.url}/api/v1/write`,
  });
});

afterAll(async () => {
  await agent?.stop();
  if (target) {
    const closed = new Promise((resolve) => target.server.close(resolve));
    target.server.closeAllConnections();
    await closed;
  }
  await receiver?.close();
  await service?.stop();
});

describe.skipIf(!hasPrometheus)("Prometheus (agent mode) remote write to an observer that follows a selector", () => {
  it("delivers every sample of every matching name, a name that appears later too, in scrape order, one payload per batch", async () => {
    // A few scrapes of the first names before a new one appears.
    await eventuallyFromAgent(
      () => seriesOf(received(), chosen.name, chosen.shard).length >= 3,
      "three scrapes of the chosen series at the observer",
      40_000,
    );
    target.exposeLateName();
    await eventuallyFromAgent(
      () => {
        const data = received();
        const arrived = new Set(data.map(({ metric }) => metric));
        return gaugeNames.every((name) => arrived.has(name)) && seriesOf(data, lateName, 0).length >= 3;
      },
      "every name, and three scrapes of the late one, at the observer",
      20_000,
    );
    const requests = [...receiver.received];
    const posts = requests.length;
    const data = dataOf(requests);

    expect([...new Set(data.map(({ metric }) => metric))].sort()).toEqual([...gaugeNames, lateName].sort());
    expect([...new Set(data.map(({ resourceId }) => resourceId))].sort()).toEqual(
      shards.map((shard) => `${target.address},job=${job},shard=${shard}`),
    );
    // Each value belongs to the series it arrived as.
    const misplaced = data.filter(
      ({ metric, resourceId, value }) =>
        typeof value !== "number" || value % 1_000 !== seriesCode(metric, Number(resourceId.split("shard=")[1])),
    );
    expect(misplaced).toEqual([]);

    // Registered before the first scrape, the observer gets every scrape, each once, in order.
    const chosenSeries = seriesOf(data, chosen.name, chosen.shard);
    const chosenScrapes = chosenSeries.map(({ value }) => scrapeOf(value as number));
    expect(chosenScrapes).toEqual(chosenScrapes.map((_, index) => index + 1));
    const timestamps = chosenSeries.map(({ timestamp }) => timestamp);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(new Set(timestamps).size).toBe(timestamps.length);

    // The late name from the first scrape that exposed it.
    const lateScrapes = seriesOf(data, lateName, 0).map(({ value }) => scrapeOf(value as number));
    const lateSince = target.lateSince("/metrics");
    expect(lateScrapes).toEqual(lateScrapes.map((_, index) => (lateSince ?? Number.NaN) + index));

    // One payload per batch whatever the names: far fewer POSTs than names × scrapes.
    console.info(
      `selector observer: ${data.length} samples of ${gaugeNames.length + 1} names over ${chosenScrapes.length} ` +
        `scrapes in ${posts} POSTs`,
    );
    expect(posts).toBeLessThan(gaugeNames.length + 1);
  });
});
