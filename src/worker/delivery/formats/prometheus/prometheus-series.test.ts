import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Label } from "../../../vocabulary/datum";
import type { LabelChanges, MetricRun } from "../../../vocabulary/delivery";
import { prometheusLabelName, prometheusMetricName, prometheusSeries } from "./prometheus-series";
import { row } from "./testing/remote-write-cases";

const at = 1_700_000_000_000;

describe("prometheusMetricName", () => {
  it.each([
    ["node_cpu_seconds_total", "node_cpu_seconds_total"],
    ["job:rate5m:sum", "job:rate5m:sum"],
    ["cpu.usage-idle", "cpu_usage_idle"],
    ["FrontendCPUUtilization", "FrontendCPUUtilization"],
    ["5xx_rate", "_5xx_rate"],
    ["température 🌡", "temp_rature__"],
    ["_", "_"],
  ])("makes %j %j", (metric, name) => {
    expect(prometheusMetricName(metric)).toBe(name);
  });
});

describe("prometheusLabelName", () => {
  it.each([
    ["instance", "instance"],
    ["host.name", "host_name"],
    ["a:b", "a_b"],
    ["1st", "_1st"],
    ["9", "_9"],
    ["", "_"],
    ["zürich", "z_rich"],
    ["__meta", "__meta"],
  ])("makes %j %j", (label, name) => {
    expect(prometheusLabelName(label)).toBe(name);
  });
});

describe("prometheusSeries", () => {
  it("gives a datum's labels, `__name__` among them, sorted by name", () => {
    const pairs: Label[] = [
      ["Zone", "b"],
      ["host.name", "vm1"],
      ["instance", "vm1:9100"],
    ];
    expect(prometheusSeries([["cpu.idle", [row(at, 90, "vm1:9100,Zone=b,host.name=vm1", pairs)]]])).toEqual([
      {
        labels: [
          ["Zone", "b"],
          ["__name__", "cpu_idle"],
          ["host_name", "vm1"],
          ["instance", "vm1:9100"],
        ],
        timestamps: [at],
        values: [90],
      },
    ]);
  });

  it("gives data without labels their resourceId as `resource`", () => {
    expect(prometheusSeries([["cpu", [row(at, 1, "frontend1")]]])).toEqual([
      {
        labels: [
          ["__name__", "cpu"],
          ["resource", "frontend1"],
        ],
        timestamps: [at],
        values: [1],
      },
    ]);
  });

  it("joins the values of labels whose names become the same, in the order of their names", () => {
    const pairs: Label[] = [
      ["a-b", "1"],
      ["a.b", "2"],
      ["a_b", "3"],
      ["c", "4"],
    ];
    expect(prometheusSeries([["m", [row(at, 1, "r", pairs)]]])[0]!.labels).toEqual([
      ["__name__", "m"],
      ["a_b", "1;2;3"],
      ["c", "4"],
    ]);
  });

  it("keeps the metric's name as `__name__` over a datum label of that name", () => {
    const pairs: Label[] = [
      ["__name__", "other"],
      ["a", "1"],
    ];
    expect(prometheusSeries([["m", [row(at, 1, "r", pairs)]]])[0]!.labels).toEqual([
      ["__name__", "m"],
      ["a", "1"],
    ]);
  });

  it("applies the observer's additions, which replace, then its drops", () => {
    const pairs: Label[] = [
      ["env", "test"],
      ["instance", "vm1"],
      ["job", "node"],
    ];
    const changes = { add: { env: "prod", region: "eu", extra: "x" }, drop: ["job", "extra", "absent"] };
    expect(prometheusSeries([["m", [row(at, 1, "vm1", pairs)]]], changes)[0]!.labels).toEqual([
      ["__name__", "m"],
      ["env", "prod"],
      ["instance", "vm1"],
      ["region", "eu"],
    ]);
    expect(prometheusSeries([["m", [row(at, 1, "vm1")]]], { drop: ["resource"] })[0]!.labels).toEqual([
      ["__name__", "m"],
    ]);
  });

  it("makes one series of data with the same labels, in any run, in the order each first appears", () => {
    const pairs: Label[] = [["resource", "r1"]];
    const runs: MetricRun[] = [
      ["m", [row(at, 1, "r1"), row(at, 2, "r2"), row(at + 1, 3, "r1", pairs)]],
      ["other", [row(at, 4, "r1")]],
      ["m", [row(at + 2, 5, "r1", [...pairs]), row(at + 3, 6, "r2")]],
      ["m.", [row(at, 7, "r1")]],
      ["m:", [row(at, 8, "r1")]],
    ];
    const series = prometheusSeries(runs);
    expect(series.map(({ labels, values }) => [labels[0]![1], labels[1]?.[1], values])).toEqual([
      ["m", "r1", [1, 3, 5]],
      ["m", "r2", [2, 6]],
      ["other", "r1", [4]],
      ["m_", "r1", [7]],
      ["m:", "r1", [8]],
    ]);
  });

  it("applies the observer's changes to the labels as made valid and joined, not as they came", () => {
    const pairs: Label[] = [
      ["a-b", "1"],
      ["a.b", "2"],
      ["host.name", "vm1"],
    ];
    const labelsWith = (changes: LabelChanges) =>
      prometheusSeries([["m", [row(at, 1, "vm1", pairs)]]], changes)[0]!.labels;
    expect(labelsWith({ drop: ["host.name", "a.b"] })).toEqual([
      ["__name__", "m"],
      ["a_b", "1;2"],
      ["host_name", "vm1"],
    ]);
    expect(labelsWith({ add: { a_b: "3" }, drop: ["host_name"] })).toEqual([
      ["__name__", "m"],
      ["a_b", "3"],
    ]);
  });

  it("merges series that become the same once the observer drops a label", () => {
    const runs: MetricRun[] = [["m", [row(at + 1, 1, "r1"), row(at, 2, "r2")]]];
    expect(prometheusSeries(runs, { drop: ["resource"] })).toEqual([
      { labels: [["__name__", "m"]], timestamps: [at, at + 1], values: [2, 1] },
    ]);
  });

  it("puts each series' samples in timestamp order, equal timestamps in the order they came", () => {
    const rows = [at + 5, at, at + 5, -3, at, at + 5].map((timestamp, index) => row(timestamp, index, "r"));
    expect(prometheusSeries([["m", rows]])[0]).toMatchObject({
      timestamps: [-3, at, at, at + 5, at + 5, at + 5],
      values: [3, 1, 4, 0, 2, 5],
    });
  });

  it("gives non-finite values as numbers", () => {
    const rows = (["NaN", "INF", "-INF", -0] as const).map((value, index) => row(at + index, value, "r"));
    expect(prometheusSeries([["m", rows]])[0]!.values).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -0,
    ]);
  });

  it("works a label content's labels out once: later payloads give its series the very same labels", () => {
    const pairs = (): Label[] => [
      ["instance", "vm7:9100"],
      ["job", "node"],
    ];
    const first = prometheusSeries([["m", [row(at, 1, "vm7:9100", pairs())]]]);
    const later = prometheusSeries([["m", [row(at + 1, 2, "vm7:9100", pairs())]]]);
    expect(later[0]!.labels).toBe(first[0]!.labels);
    expect(prometheusSeries([["m", [row(at, 1, "vm7:9100", pairs())]]], { drop: ["job"] })[0]!.labels).toEqual([
      ["__name__", "m"],
      ["instance", "vm7:9100"],
    ]);
    expect(prometheusSeries([["m", [row(at, 1, "vm7:9100", pairs())]]])[0]!.labels).toBe(first[0]!.labels);
  });

  it("gives the series of any data, payload after payload, as it does without remembering", () => {
    const text = fc.constantFrom("a", "b", "a.b", "a_b", "1", "", "=", "1:a", "__name__", "resource");
    const labelled = fc.uniqueArray(fc.tuple(text, text), { selector: ([name]) => name, maxLength: 3 });
    const anyRow = fc.tuple(fc.integer({ min: 0, max: 5 }), text, fc.option(labelled, { nil: undefined }));
    const runs = fc.array(fc.tuple(fc.constantFrom("m", "m.", "m_"), fc.array(anyRow, { maxLength: 6 })), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(fc.array(runs, { minLength: 1, maxLength: 4 }), (payloads) => {
        for (const payload of payloads) {
          const metricRuns: MetricRun[] = payload.map(([metric, rows]) => [
            metric,
            rows.map(([timestamp, resourceId, pairs], index) =>
              row(
                at + timestamp,
                index,
                resourceId,
                pairs?.sort(([left], [right]) => (left < right ? -1 : 1)),
              ),
            ),
          ]);
          // An empty set of changes changes nothing, and is not remembered across payloads.
          expect(prometheusSeries(metricRuns)).toEqual(prometheusSeries(metricRuns, {}));
        }
      }),
    );
  });

  it("gives no series for no data", () => {
    expect(prometheusSeries([])).toEqual([]);
    expect(prometheusSeries([["m", []]])).toEqual([]);
  });
});
