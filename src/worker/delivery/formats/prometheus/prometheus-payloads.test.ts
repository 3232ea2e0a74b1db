import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../config";
import { type SeriesKeyOptions, seriesToData } from "../../../intake/common/series-data";
import { toRow } from "../../../intake/queue-message";
import { decodeSnappyBlock } from "../../../intake/remote-write/snappy";
import { encodeWriteRequest, type SeriesToEncode } from "../../../intake/remote-write/testing/write-request-encoder";
import { readWriteRequest } from "../../../intake/remote-write/write-request";
import { type DatumRow, type Label, seriesLabels } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { byLabelName } from "../label-changes";
import { maxSamplesPerRequest, prometheusPayloads } from "./prometheus-payloads";
import { prometheusSeries } from "./prometheus-series";
import { readBack, row, type SampledSeries } from "./testing/remote-write-cases";

const at = 1_700_000_000_000;
const many = 10_000_000;

/** One payload as a receiver reads it: our snappy decoder, then our WriteRequest reader. */
const readPayload = (body: Uint8Array): SampledSeries[] => readBack(decodeSnappyBlock(body, many));

/** What a receiver holds after all the payloads: each series once, its samples in the order received. */
function received(payloads: readonly Uint8Array[]): SampledSeries[] {
  const series = new Map<string, SampledSeries>();
  for (const body of payloads) {
    for (const each of readPayload(body)) {
      const key = JSON.stringify(each.labels);
      const known = series.get(key);
      if (known === undefined) series.set(key, each);
      else known.samples.push(...each.samples);
    }
  }
  return [...series.values()];
}

const samplesIn = (body: Uint8Array) => readPayload(body).reduce((sum, each) => sum + each.samples.length, 0);

describe("prometheusPayloads", () => {
  it("gives back exactly the series: labels, values of every kind, 13-digit and negative timestamps", () => {
    const pairs: Label[] = [
      ["host.name", "vm1"],
      ["instance", "vm1:9100"],
    ];
    const runs: MetricRun[] = [
      [
        "cpu.idle",
        [row(at, 90.5, "vm1:9100,host.name=vm1", pairs), row(at + 15_000, "NaN", "vm1:9100,host.name=vm1", pairs)],
      ],
      ["temperature", [row(-1_000, "INF", "room 1"), row(0, "-INF", "room 1"), row(-86_400_000, -0, "room 2")]],
    ];
    expect(received(prometheusPayloads(runs, { add: { site: "zürich" } }))).toEqual([
      {
        labels: [
          ["__name__", "cpu_idle"],
          ["host_name", "vm1"],
          ["instance", "vm1:9100"],
          ["site", "zürich"],
        ],
        samples: [
          { value: 90.5, timestamp: at },
          { value: Number.NaN, timestamp: at + 15_000 },
        ],
      },
      {
        labels: [
          ["__name__", "temperature"],
          ["resource", "room 1"],
          ["site", "zürich"],
        ],
        samples: [
          { value: Number.POSITIVE_INFINITY, timestamp: -1_000 },
          { value: Number.NEGATIVE_INFINITY, timestamp: 0 },
        ],
      },
      {
        labels: [
          ["__name__", "temperature"],
          ["resource", "room 2"],
          ["site", "zürich"],
        ],
        samples: [{ value: -0, timestamp: -86_400_000 }],
      },
    ]);
  });

  it("gives no payload for no data", () => {
    expect(prometheusPayloads([])).toEqual([]);
    expect(prometheusPayloads([["m", []]])).toEqual([]);
  });

  it("puts at most 2,000 samples in a request, a series' earlier samples in earlier requests", () => {
    const long = Array.from({ length: 4_500 }, (_, index) => row(at + 4_500 - index, index, "long"));
    const short = Array.from({ length: 600 }, (_, index) => row(at + index, index, "short"));
    const payloads = prometheusPayloads([["m", [...long, ...short]]]);
    expect(payloads.map(samplesIn)).toEqual([2_000, 2_000, 1_100]);
    const [longSeries, shortSeries] = received(payloads);
    expect(longSeries!.samples.map(({ timestamp }) => timestamp)).toEqual(
      Array.from({ length: 4_500 }, (_, index) => at + 1 + index),
    );
    expect(shortSeries!.samples).toHaveLength(600);
  });

  describe("over random data", () => {
    /** Names that need repair and collide once repaired, and names that need none. */
    const labelName = fc.oneof(
      fc.constantFrom("a.b", "a-b", "a_b", "1x", "_1x", "host.name", "host_name", "é", "_", "ü", "__name__", ""),
      fc.string({ unit: "grapheme", maxLength: 8 }),
      fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/),
    );
    const labelPairs = fc
      .uniqueArray(fc.tuple(labelName, fc.string({ unit: "grapheme", maxLength: 12 })), {
        selector: ([name]) => name,
        maxLength: 5,
      })
      .map((pairs): Label[] => pairs.sort(byLabelName));
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom<DatumRow[2]>("NaN", "INF", "-INF"),
    );
    const timestamp = fc.oneof(fc.integer({ min: -1e13, max: 1e13 }), fc.maxSafeInteger(), fc.constant(at));
    /**
     * Runs of a few series each, as queue messages carry them: the rows of one agent series share
     * its labels; the others have a resourceId only. Long enough to fill several requests.
     */
    const run = fc
      .record({
        metric: fc.oneof(
          fc.constantFrom("cpu", "cpu.idle", "5xx", "température", "job:rate"),
          fc.string({ minLength: 1 }),
        ),
        labelSets: fc.array(labelPairs, { minLength: 1, maxLength: 4 }),
        rows: fc.array(fc.tuple(timestamp, value, fc.constantFrom("r1", "r2", "vm 3"), fc.nat()), {
          maxLength: 1_500,
          size: "max",
        }),
      })
      .map(({ metric, labelSets, rows }): MetricRun => {
        const shared = labelSets.map((pairs) => seriesLabels(pairs));
        return [
          metric,
          rows.map(([time, sampleValue, resourceId, pick]): DatumRow => {
            const labels = shared[pick % (shared.length + 1)];
            return labels === undefined
              ? ["d", time, sampleValue, resourceId]
              : ["d", time, sampleValue, resourceId, labels];
          }),
        ];
      });
    const runs = fc.array(run, { maxLength: 6 });
    const changes: fc.Arbitrary<LabelChanges | undefined> = fc.option(
      fc.record(
        {
          add: fc.dictionary(fc.constantFrom("env", "a_b", "resource", "region"), fc.string({ maxLength: 5 })),
          drop: fc.subarray(["resource", "host_name", "_1x", "nothing"]),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    );

    it("gives back the series as they are made of the runs, at most 2,000 samples a request, in time order", () => {
      fc.assert(
        fc.property(runs, changes, (data, labelChanges) => {
          const payloads = prometheusPayloads(data, labelChanges);
          const samples = payloads.map(samplesIn);
          expect(samples.every((count) => count > 0 && count <= maxSamplesPerRequest)).toBe(true);
          expect(samples.slice(0, -1).every((count) => count === maxSamplesPerRequest)).toBe(true);
          const back = received(payloads);
          const expected = prometheusSeries(data, labelChanges).map(({ labels, timestamps, values }) => ({
            labels,
            samples: timestamps.map((time, index) => ({ value: values[index]!, timestamp: time })),
          }));
          expect(back).toEqual(expected);
          for (const { labels, samples: each } of back) {
            const names = labels.map(([name]) => name);
            expect(names.every((name) => /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name))).toBe(true);
            expect(names.every((name, index) => index === 0 || names[index - 1]! < name)).toBe(true);
            const metric = labels.find(([name]) => name === "__name__")?.[1];
            expect(metric).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
            expect(each.every((sample, index) => index === 0 || each[index - 1]!.timestamp <= sample.timestamp)).toBe(
              true,
            );
          }
          const rows = data.reduce((sum, [, dataRows]) => sum + dataRows.length, 0);
          expect(back.reduce((sum, each) => sum + each.samples.length, 0)).toBe(rows);
        }),
        { numRuns: 60 },
      );
    });
  });

  describe("remote write in, remote write out", () => {
    /** The options the remote write route reads series with when the request names no `resource=` or `drop=`. */
    const remoteWriteOptions: SeriesKeyOptions = {
      primary: ["instance"],
      drop: new Set(),
      maxMetricNameLength: readConfig({}).MAX_METRIC_NAME_LENGTH,
    };

    /** The data of a remote write request, as the intake reads them and a payload's runs carry them. */
    function runsOfRequest(series: readonly SeriesToEncode[]): MetricRun[] {
      const reading = readWriteRequest(encodeWriteRequest(series), many);
      expect(reading.refused).toEqual([]);
      const { data, refused } = seriesToData(reading.series, remoteWriteOptions);
      expect(refused).toEqual([]);
      const runs = new Map<string, DatumRow[]>();
      for (const datum of data) {
        const rows = runs.get(datum.metric) ?? [];
        rows.push(toRow(datum));
        runs.set(datum.metric, rows);
      }
      return [...runs];
    }

    const metricName = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,20}$/);
    const labelName = fc.oneof(
      fc.constantFrom("instance", "job", "le", "quantile", "__meta_x"),
      fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,12}$/),
    );
    // Intake refuses control characters in labels: a resourceId may not hold them.
    const labelValue = fc.string({ unit: "grapheme", maxLength: 16 }).filter((text) => !/\p{Cc}/u.test(text));
    const series = fc.record({
      name: metricName,
      labels: fc
        .uniqueArray(fc.tuple(labelName, labelValue), { selector: ([name]) => name, maxLength: 5 })
        .map((pairs) => pairs.filter(([name]) => name !== "__name__").sort(byLabelName)),
      samples: fc
        .uniqueArray(
          fc.oneof(fc.integer({ min: -1e13, max: 1e13 }), fc.maxSafeInteger(), fc.integer({ min: at, max: at + 1e6 })),
          { minLength: 1, maxLength: 300 },
        )
        .chain((times) =>
          fc
            .array(fc.double(), { minLength: times.length, maxLength: times.length })
            .map((values) =>
              times
                .sort((left, right) => left - right)
                .map((timestamp, index) => ({ value: values[index]!, timestamp })),
            ),
        ),
    });
    const request = fc.uniqueArray(series, {
      selector: ({ name, labels }) => JSON.stringify([name, labels]),
      minLength: 1,
      maxLength: 12,
    });

    it("delivers each series with exactly the labels, values and timestamps it came with", () => {
      fc.assert(
        fc.property(request, (sent) => {
          const toEncode = sent.map(({ name, labels, samples }): SeriesToEncode => {
            return { labels: [["__name__", name], ...labels], samples };
          });
          const back = received(prometheusPayloads(runsOfRequest(toEncode)));
          const key = (labels: readonly Label[]) => JSON.stringify(labels);
          const expected = sent.map(({ name, labels, samples }) => ({
            labels: [["__name__", name] as Label, ...labels].sort(byLabelName),
            samples,
          }));
          expect(back.sort((left, right) => (key(left.labels) < key(right.labels) ? -1 : 1))).toEqual(
            expected.sort((left, right) => (key(left.labels) < key(right.labels) ? -1 : 1)),
          );
        }),
        { numRuns: 60 },
      );
    });
  });
});
