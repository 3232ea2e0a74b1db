import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RemoteWriteBackend,
  type RemoteWriteChain,
  startRemoteWriteChain,
} from "../support/remote-write-chain.ts";
import type { TargetGauge } from "../support/scrape-target.ts";
import { eventually } from "../support/service.ts";
import { normalizedSeries, readUntil, type StoredSeries } from "../support/stored-series.ts";

/*
 * The suite both remote-write backends pass: a Prometheus agent scrapes a target whose every
 * sample is known and remote-writes to the service; a `PROMETHEUS` observer that follows a selector
 * forwards to the backend, which must then hold every scraped series with exactly the labels the
 * agent sent (`job` and `instance` among them), and exactly its values and timestamps. The backend
 * receives nothing else, so everything it holds is read back, and must be that.
 */

const job = "backends";
const scrapes = 4;
const gauges: TargetGauge[] = [
  { name: "tower_backend_temperature_celsius", labels: { room: "lab", sensor: "a" } },
  // What a resourceId escapes (space, comma, equals sign, backslash) and what the exposition escapes.
  { name: "tower_backend_temperature_celsius", labels: { room: "lab 2, floor=3", sensor: 'b "west" \\ wing' } },
  { name: "tower_backend_queue_length", labels: { queue: "émission" } },
  // A recording rule's name: colons are valid in metric names.
  { name: "tower_backend:requests:rate5m", labels: { code: "200" } },
  // No labels of its own: `job` and `instance` only.
  { name: "tower_backend_build_info", labels: {} },
];
const selector = `{__name__=~"tower_backend[_:].*",job="${job}"}`;
const everything = '{__name__=~".+"}';
/** Where a failing test shows the backend's reason, if it logged one. */
const backendLogCharacters = 4_000;

const sampleCount = (series: readonly StoredSeries[]) =>
  series.reduce((count, { samples }) => count + samples.length, 0);

export function describeRemoteWriteBackend(
  title: string,
  available: boolean,
  absence: string,
  startBackend: () => Promise<RemoteWriteBackend>,
): void {
  if (!available) console.warn(`${title} skipped: ${absence}`);
  let backend: RemoteWriteBackend | undefined;
  let chain: RemoteWriteChain | undefined;

  beforeAll(async () => {
    if (!available) return;
    backend = await startBackend();
    chain = await startRemoteWriteChain({ backend, gauges, scrapes, job, selector });
  });

  afterAll(async () => {
    await chain?.stop();
    await backend?.stop();
  });

  describe.skipIf(!available)(title, () => {
    it("holds every scraped series with exactly its labels, values and timestamps", async () => {
      const target = chain!.target;
      await eventually(() => target.served() === scrapes, 25_000, { what: `${scrapes} scrapes of the target` });
      const expected = normalizedSeries(target.series(job));
      const stored = await readUntil(
        async () => normalizedSeries(await backend!.read(everything)),
        (reading) => sampleCount(reading) >= sampleCount(expected),
        25_000,
      );
      const diagnosis = `${await chain!.diagnosis()}\nthe backend logged:\n${backend!.log().slice(-backendLogCharacters)}`;
      expect(stored, diagnosis).toEqual(expected);
    });
  });
}
