import { describe, expect, it } from "vitest";
import { type DatumRow, type Label, type LineField, seriesLabels } from "../../vocabulary/datum";
import type { MetricRun } from "../../vocabulary/delivery";
import { influxDbSerializer } from "./influxdb";

const lines = (runs: MetricRun[], changes?: Parameters<typeof influxDbSerializer.payloads>[1]) =>
  influxDbSerializer.records(runs, changes);

const point = (id: string, ms: number, value: number, pairs: Label[], line?: LineField): DatumRow => [
  id,
  ms,
  value,
  pairs.map(([, tag]) => tag).join(","),
  seriesLabels(pairs, line),
];

describe("INFLUXDB with labels", () => {
  it("writes line-protocol data back as the points they were: one line per series and time, each field typed", () => {
    const tags: Label[] = [
      ["cpu", "cpu0"],
      ["host", "vm 1"],
    ];
    const runs: MetricRun[] = [
      [
        "cpu.usage_idle",
        [
          point("a", 1_000, 90.5, tags, ["cpu", "usage_idle", "float"]),
          point("b", 2_000, 91, tags, ["cpu", "usage_idle", "float"]),
        ],
      ],
      ["cpu.ticks", [point("c", 1_000, 42, tags, ["cpu", "ticks", "integer"])]],
      ["cpu.busy", [point("d", 1_000, 1, tags, ["cpu", "busy", "boolean"])]],
      ["cpu.count", [point("e", 2_000, 7, tags, ["cpu", "count", "unsigned"])]],
    ];

    expect(lines(runs)).toEqual([
      "cpu,cpu=cpu0,host=vm\\ 1 usage_idle=90.5,ticks=42i,busy=true 1000000000\n",
      "cpu,cpu=cpu0,host=vm\\ 1 usage_idle=91,count=7u 2000000000\n",
    ]);
  });

  it("writes other labelled data as their metric with their labels as tags, and data without labels as before", () => {
    const runs: MetricRun[] = [
      [
        "node_load1",
        [
          point("a", 5, 0.5, [
            ["instance", "vm1:9100"],
            ["job", "node"],
          ]),
        ],
      ],
      ["FrontendCPU", [["b", 5, 0.25, "frontend,1"]]],
    ];

    expect(lines(runs)).toEqual([
      "node_load1,instance=vm1:9100,job=node value=0.5 5000000\n",
      "FrontendCPU,resourceId=frontend\\,1 value=0.25 5000000\n",
    ]);
  });

  it("applies the observer's label changes to the tags", () => {
    const runs: MetricRun[] = [
      [
        "up",
        [
          point("a", 1, 1, [
            ["instance", "vm1"],
            ["job", "node"],
          ]),
        ],
      ],
    ];

    expect(lines(runs, { add: { region: "eu" }, drop: ["job"] })).toEqual([
      "up,instance=vm1,region=eu value=1 1000000\n",
    ]);
  });

  it("writes times exactly, 0 and before 1970 included, and leaves out those no reader parses", () => {
    const at = (ms: number): DatumRow => [`t${ms}`, ms, 1, "vm"];
    const runs: MetricRun[] = [
      ["t", [at(0), at(-1), at(1_700_000_000_123), at(9_223_372_036_855), at(-9_223_372_036_855)]],
    ];

    expect(lines(runs)).toEqual([
      "t,resourceId=vm value=1 0\n",
      "t,resourceId=vm value=1 -1000000\n",
      "t,resourceId=vm value=1 1700000000123000000\n",
    ]);
  });
});
