import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LineField } from "../../vocabulary/datum";
import { agentDatumId, metricHash, seriesHashSeed } from "./datum-id";
import type { LabelledPoints } from "./series";
import { type SeriesKeyOptions, seriesResourceId, seriesToData } from "./series-data";

type Labels = [key: string, value: string][];

const keyOptions = (primary: string[] = ["host"], drop: string[] = []): SeriesKeyOptions => ({
  primary,
  drop: new Set(drop),
  maxMetricNameLength: 16,
});

const series = (labels: Labels, primaryOnly?: Labels): LabelledPoints => ({
  labels,
  primaryOnly,
  origin: 1,
  points: [{ metric: "m", value: 1, timestamp: 0 }],
});

const resourceIdOf = (labels: Labels, options = keyOptions(), primaryOnly?: Labels) =>
  seriesResourceId(series(labels, primaryOnly), options);

describe("seriesResourceId", () => {
  it.each<[string, Labels, string]>([
    [
      "the primary label, then the others sorted by key",
      [
        ["host", "vm1"],
        ["cpu", "cpu0"],
      ],
      "vm1,cpu=cpu0",
    ],
    [
      "the primary label first wherever it was sent",
      [
        ["z", "1"],
        ["host", "vm1"],
        ["a", "2"],
      ],
      "vm1,a=2,z=1",
    ],
    ["the primary label alone", [["host", "vm1"]], "vm1"],
    [
      "without a primary label, the sorted labels with no leading comma",
      [
        ["b", "2"],
        ["a", "1"],
      ],
      "a=1,b=2",
    ],
    ["without any label, -", [], "-"],
    [
      "keys sorted by code unit, upper case first",
      [
        ["b", "1"],
        ["B", "2"],
        ["a", "3"],
      ],
      "B=2,a=3,b=1",
    ],
    [
      "an empty primary value, then the others",
      [
        ["host", ""],
        ["cpu", "cpu0"],
      ],
      ",cpu=cpu0",
    ],
    ["empty label values", [["a", ""]], "a="],
  ])("builds %s", (_, labels, expected) => {
    expect(resourceIdOf(labels)).toBe(expected);
  });

  it.each<[string, Labels, string]>([
    [
      "a backslash",
      [
        ["host", "vm1"],
        ["path", "C:\\temp"],
      ],
      "vm1,path=C:\\\\temp",
    ],
    [
      "a comma",
      [
        ["host", "vm1"],
        ["list", "a,b"],
      ],
      "vm1,list=a\\,b",
    ],
    [
      "an equals sign",
      [
        ["host", "vm1"],
        ["expr", "a=b"],
      ],
      "vm1,expr=a\\=b",
    ],
    [
      "a space",
      [
        ["host", "vm1"],
        ["name", "my disk"],
      ],
      "vm1,name=my\\ disk",
    ],
    [
      "every one in a key",
      [
        ["host", "vm1"],
        ["a\\b,c=d e", "v"],
      ],
      "vm1,a\\\\b\\,c\\=d\\ e=v",
    ],
    ["every one in the primary value", [["host", "vm 1,x=y\\"]], "vm\\ 1\\,x\\=y\\\\"],
    ["every one in labels without a primary", [["k ey", "v,al=ue"]], "k\\ ey=v\\,al\\=ue"],
  ])("escapes %s with a backslash", (_, labels, expected) => {
    expect(resourceIdOf(labels)).toBe(expected);
  });

  it("keeps other characters as sent", () => {
    expect(
      resourceIdOf([
        ["host", "vm-1:9100/é"],
        ["le", "+Inf"],
        ["quantile", "0.5"],
      ]),
    ).toBe("vm-1:9100/é,le=+Inf,quantile=0.5");
  });

  describe("resource=", () => {
    const labels: Labels = [
      ["host", "h"],
      ["service", "s"],
      ["zone", "z"],
    ];

    it("takes the first label of the list that is present", () => {
      expect(resourceIdOf(labels, keyOptions(["service", "host"]))).toBe("s,host=h,zone=z");
      expect(resourceIdOf(labels, keyOptions(["missing", "zone", "host"]))).toBe("z,host=h,service=s");
    });

    it("makes the sorted labels the key when none of the list is present", () => {
      expect(resourceIdOf(labels, keyOptions(["missing"]))).toBe("host=h,service=s,zone=z");
      expect(resourceIdOf(labels, keyOptions([]))).toBe("host=h,service=s,zone=z");
    });
  });

  describe("primary-only pairs (OTLP's resource attributes)", () => {
    const otlpPrimary = keyOptions(["service.instance.id", "host.name", "service.name"]);
    const resource: Labels = [
      ["service.name", "checkout"],
      ["host.name", "node7"],
      ["telemetry.sdk.name", "opentelemetry"],
    ];

    it("takes the first present as primary and leaves the others out of the key", () => {
      expect(resourceIdOf([["method", "GET"]], otlpPrimary, resource)).toBe("node7,method=GET");
    });

    it("consults them after the labels for each name", () => {
      expect(resourceIdOf([["host.name", "from-point"]], otlpPrimary, resource)).toBe("from-point");
    });

    it("follows the list's order over where a name is found", () => {
      const labels: Labels = [["service.name", "from-point"]];
      expect(resourceIdOf(labels, otlpPrimary, resource)).toBe("node7,service.name=from-point");
    });

    it("are no labels when none of them is primary", () => {
      expect(resourceIdOf([["method", "GET"]], keyOptions(["missing"]), resource)).toBe("method=GET");
      expect(resourceIdOf([], keyOptions(["missing"]), resource)).toBe("-");
    });

    it("escape the primary value like the labels' values", () => {
      expect(resourceIdOf([], otlpPrimary, [["service.name", "a b,c"]])).toBe("a\\ b\\,c");
    });
  });

  describe("drop=", () => {
    const labels: Labels = [
      ["host", "vm1"],
      ["cpu", "cpu0"],
      ["pid", "4242"],
    ];

    it("removes labels before the key is built", () => {
      expect(resourceIdOf(labels, keyOptions(["host"], ["pid"]))).toBe("vm1,cpu=cpu0");
      expect(resourceIdOf(labels, keyOptions(["host"], ["pid", "cpu", "absent"]))).toBe("vm1");
    });

    it("removes the primary label too, which then leaves the key to the others", () => {
      expect(resourceIdOf(labels, keyOptions(["host"], ["host"]))).toBe("cpu=cpu0,pid=4242");
      expect(resourceIdOf(labels, keyOptions(["host", "cpu"], ["host"]))).toBe("cpu0,pid=4242");
      expect(resourceIdOf(labels, keyOptions(["host"], ["host", "cpu", "pid"]))).toBe("-");
    });

    it("removes primary-only pairs before one is chosen", () => {
      const options = keyOptions(["host.name", "service.name"], ["host.name"]);
      const resource: Labels = [
        ["host.name", "node7"],
        ["service.name", "checkout"],
      ];
      expect(resourceIdOf([["method", "GET"]], options, resource)).toBe("checkout,method=GET");
    });

    it("leaves the series' labels as they were", () => {
      const sent = series([
        ["host", "vm1"],
        ["b", "2"],
        ["a", "1"],
      ]);
      const before = structuredClone(sent.labels);
      seriesResourceId(sent, keyOptions(["host"], ["b"]));
      seriesResourceId(sent, keyOptions());
      expect(sent.labels).toEqual(before);
    });
  });

  describe("properties", () => {
    // Few characters, the key syntax among them, so that label sets often look alike.
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\\", ",", "=", " ", "-"), maxLength: 4 });
    const labelSet = fc.uniqueArray(fc.tuple(fc.oneof(fc.constant("host"), text), text), {
      selector: ([key]) => key,
      maxLength: 5,
    });
    const sortedText = (labels: Labels) =>
      JSON.stringify([...labels].sort(([left], [right]) => (left < right ? -1 : 1)));
    /** A primary label alone, of value `-` or empty, gives `-` like no label at all: the contract's one ambiguity. */
    const onlyDashLikePrimary = (labels: Labels) =>
      labels.length === 1 && labels[0]![0] === "host" && (labels[0]![1] === "-" || labels[0]![1] === "");

    it("is deterministic and independent of the labels' order", () => {
      fc.assert(
        fc.property(
          labelSet.chain((labels) =>
            fc.tuple(fc.constant(labels), fc.shuffledSubarray(labels, { minLength: labels.length })),
          ),
          ([labels, shuffled]) => {
            const key = resourceIdOf(labels);
            expect(resourceIdOf(labels)).toBe(key);
            expect(resourceIdOf(shuffled)).toBe(key);
          },
        ),
      );
    });

    it("gives distinct label sets distinct keys", () => {
      fc.assert(
        fc.property(labelSet, labelSet, (left, right) => {
          fc.pre(sortedText(left) !== sortedText(right));
          fc.pre(
            !(onlyDashLikePrimary(left) && right.length === 0) && !(onlyDashLikePrimary(right) && left.length === 0),
          );
          fc.pre(!(onlyDashLikePrimary(left) && onlyDashLikePrimary(right)));
          expect(resourceIdOf(left)).not.toBe(resourceIdOf(right));
        }),
        { numRuns: 500 },
      );
    });
  });
});

describe("seriesToData", () => {
  const point = (metric: string, value = 1, timestamp = 1_700_000_000_000) => ({ metric, value, timestamp });

  it("makes each point a datum of the series' resourceId, with its deterministic id", () => {
    const { data, refused } = seriesToData(
      [
        {
          labels: [
            ["cpu", "cpu0"],
            ["host", "vm1"],
          ],
          origin: 1,
          points: [point("cpu.usage", 90), point("cpu.idle", 10, 5)],
        },
        { labels: [], origin: 2, points: [point("load", Number.NaN, -1)] },
      ],
      keyOptions(),
    );
    expect(refused).toEqual([]);
    const seed = seriesHashSeed("vm1,cpu=cpu0");
    const labels = {
      pairs: [
        ["cpu", "cpu0"],
        ["host", "vm1"],
      ],
    };
    expect(data).toEqual([
      {
        id: agentDatumId(seed, metricHash("cpu.usage"), 1_700_000_000_000),
        metric: "cpu.usage",
        timestamp: 1_700_000_000_000,
        value: 90,
        resourceId: "vm1,cpu=cpu0",
        labels,
      },
      {
        id: agentDatumId(seed, metricHash("cpu.idle"), 5),
        metric: "cpu.idle",
        timestamp: 5,
        value: 10,
        resourceId: "vm1,cpu=cpu0",
        labels,
      },
      {
        id: agentDatumId(seriesHashSeed("-"), metricHash("load"), -1),
        metric: "load",
        timestamp: -1,
        value: Number.NaN,
        resourceId: "-",
        labels: { pairs: [] },
      },
    ]);
  });

  it("keeps the key of frozen labels, shared between series, for the options object it was built for", () => {
    const labels = Object.freeze<Labels>([
      ["host", "vm1"],
      ["cpu", "cpu0"],
    ]);
    const shared = (primaryOnly?: Labels): LabelledPoints => ({ labels, primaryOnly, origin: 1, points: [point("m")] });
    const resourceIds = (each: LabelledPoints, options: SeriesKeyOptions) =>
      seriesToData([each], options).data.map(({ resourceId }) => resourceId);
    const byHost = keyOptions();
    expect(resourceIds(shared(), byHost)).toEqual(["vm1,cpu=cpu0"]);
    expect(resourceIds(shared(), byHost)).toEqual(["vm1,cpu=cpu0"]);
    expect(resourceIds(shared(), keyOptions(["cpu"]))).toEqual(["cpu0,host=vm1"]);
    expect(resourceIds(shared(), keyOptions(["host"], ["cpu"]))).toEqual(["vm1"]);
    expect(resourceIds(shared([["node", "n1"]]), keyOptions(["node"]))).toEqual(["n1,cpu=cpu0,host=vm1"]);
    expect(resourceIds(shared(), byHost)).toEqual(["vm1,cpu=cpu0"]);
  });

  it("makes nothing of no series, and nothing of a series without points", () => {
    expect(seriesToData([], keyOptions())).toEqual({ data: [], refused: [] });
    expect(seriesToData([{ labels: [["host", "a"]], origin: 3, points: [] }], keyOptions())).toEqual({
      data: [],
      refused: [],
    });
  });

  describe("a resourceId of at most 1,024 characters", () => {
    const withHost = (length: number): LabelledPoints => ({
      labels: [["host", "h".repeat(length)]],
      origin: 4,
      points: [point("m")],
    });

    it("accepts exactly 1,024", () => {
      const { data, refused } = seriesToData([withHost(1_024)], keyOptions());
      expect(refused).toEqual([]);
      expect(data[0]!.resourceId).toHaveLength(1_024);
    });

    it("refuses the series of a longer one, counting the escapes, and keeps the other series", () => {
      const escaped: LabelledPoints = { labels: [["host", " ".repeat(513)]], origin: 5, points: [point("m")] };
      const { data, refused } = seriesToData([withHost(1_025), escaped, withHost(3)], keyOptions());
      expect(data.map((datum) => datum.resourceId)).toEqual(["hhh"]);
      expect(refused).toEqual([
        { origin: 4, message: "its resourceId would be 1025 characters long; at most 1024 are accepted" },
        { origin: 5, message: "its resourceId would be 1026 characters long; at most 1024 are accepted" },
      ]);
    });
  });

  it.each([
    ["a line feed in a value", [["host", "vm\n1"]]],
    [
      "a NUL in a key",
      [
        ["host", "vm1"],
        ["a\u0000", "b"],
      ],
    ],
    ["a C1 control in the primary value", [["host", "vm\u00851"]]],
    ["DEL in a value", [["x", "\u007f"]]],
  ] satisfies [string, Labels][])("refuses the series of %s", (_, labels) => {
    const { data, refused } = seriesToData([{ labels, origin: 6, points: [point("m"), point("n")] }], keyOptions());
    expect(data).toEqual([]);
    expect(refused).toEqual([{ origin: 6, message: "its labels hold control characters, which a resourceId may not" }]);
  });

  it("checks the resourceId after dropping labels: a dropped label cannot refuse a series", () => {
    const { data, refused } = seriesToData(
      [
        {
          labels: [
            ["host", "vm1"],
            ["bad", "\n"],
          ],
          origin: 1,
          points: [point("m")],
        },
      ],
      keyOptions(["host"], ["bad"]),
    );
    expect(refused).toEqual([]);
    expect(data.map((datum) => datum.resourceId)).toEqual(["vm1"]);
  });

  it.each([
    ["a slash", "cpu/usage", 'metric name must not contain "/"'],
    ["a control character", "cpu\tusage", "metric name must not contain control characters"],
    ["more characters than the limit", "a".repeat(17), "metric name must be at most 16 characters long"],
    ["no character", "", "metric name must not be empty"],
    ["an unpaired surrogate", "cpu\ud800", "metric name must not contain unpaired surrogates"],
  ])("refuses a point whose metric name has %s, keeping the series' other points", (_, metric, why) => {
    const { data, refused } = seriesToData(
      [{ labels: [["host", "vm1"]], origin: 8, points: [point("good"), point(metric), point("also.good")] }],
      keyOptions(),
    );
    expect(data.map((datum) => datum.metric)).toEqual(["good", "also.good"]);
    expect(refused).toEqual([{ origin: 8, message: `${JSON.stringify(metric)}: ${why}` }]);
  });

  it("checks a name again against another limit, and answers the same for a name checked before", () => {
    const name = "a".repeat(17);
    const request = (maxMetricNameLength: number) =>
      seriesToData([{ labels: [["host", "vm1"]], origin: 2, points: [point(name), point("m")] }], {
        ...keyOptions(),
        maxMetricNameLength,
      });
    const refusedAt16 = request(16);
    expect(refusedAt16.data.map((datum) => datum.metric)).toEqual(["m"]);
    expect(request(17).data.map((datum) => datum.metric)).toEqual([name, "m"]);
    expect(request(16)).toEqual(refusedAt16);
    expect(request(17).data.map(({ id }) => id)).toEqual(
      [name, "m"].map((metric) => agentDatumId(seriesHashSeed("vm1"), metricHash(metric), 1_700_000_000_000)),
    );
  });

  it("accepts a name of exactly the limit, counted in code points", () => {
    const { data, refused } = seriesToData(
      [{ labels: [], origin: 1, points: [point("a".repeat(16)), point("😀".repeat(16))] }],
      keyOptions(),
    );
    expect(refused).toEqual([]);
    expect(data).toHaveLength(2);
  });

  it("names a long refused metric by its first 64 characters", () => {
    const metric = `${"x".repeat(100)}/`;
    const { refused } = seriesToData([{ labels: [], origin: 2, points: [point(metric)] }], keyOptions());
    expect(refused).toEqual([
      { origin: 2, message: `"${"x".repeat(64)}": metric name must be at most 16 characters long` },
    ]);
  });

  it("refuses each bad point of every series, in order", () => {
    const { refused } = seriesToData(
      [
        { labels: [], origin: 1, points: [point("a/b"), point("ok")] },
        { labels: [], origin: 2, points: [point("a/b")] },
      ],
      keyOptions(),
    );
    expect(refused.map((each) => each.origin)).toEqual([1, 2]);
  });
});

describe("the labels data carry", () => {
  const point = (metric: string, line?: LineField) => ({ metric, value: 1, timestamp: 1_000, ...(line && { line }) });
  const labelsOf = (each: readonly LabelledPoints[], options = keyOptions()) =>
    seriesToData(each, options).data.map(({ labels }) => labels);

  it("are the labels but the dropped ones, sorted by name, the primary among them, in one object per series", () => {
    const [first, second] = labelsOf(
      [
        {
          labels: [
            ["z", "1"],
            ["host", "vm1"],
            ["secret", "s"],
            ["a", "2"],
          ],
          origin: 1,
          points: [point("m"), point("n")],
        },
      ],
      keyOptions(["host"], ["secret"]),
    );
    expect(first).toEqual({
      pairs: [
        ["a", "2"],
        ["host", "vm1"],
        ["z", "1"],
      ],
    });
    expect(second).toBe(first);
  });

  it("are shared by the series of a request with the same labels, and apart for other labels", () => {
    const at = (host: string, cpu: string): LabelledPoints => ({
      labels: [
        ["host", host],
        ["cpu", cpu],
      ],
      origin: 1,
      points: [point("m")],
    });
    const [first, again, other, dashed] = labelsOf([at("a", "0"), at("a", "0"), at("a", "1"), at("a,cpu=0", "x")]);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(other!.pairs).toEqual([
      ["cpu", "1"],
      ["host", "a"],
    ]);
    expect(dashed!.pairs[1]).toEqual(["host", "a,cpu=0"]);
  });

  it("tell apart label sets whose resourceIds are the same: a primary of `-` or empty alone", () => {
    const alone = (value: string): LabelledPoints => ({ labels: [["host", value]], origin: 1, points: [point("m")] });
    const data = seriesToData(
      [alone("-"), alone(""), { labels: [], origin: 1, points: [point("m")] }],
      keyOptions(),
    ).data;
    expect(data.map(({ resourceId }) => resourceId)).toEqual(["-", "-", "-"]);
    expect(data.map(({ labels }) => labels)).toEqual([
      { pairs: [["host", "-"]] },
      { pairs: [["host", ""]] },
      { pairs: [] },
    ]);
  });

  it("hold each name once, the first sent, when a protocol repeats one (the resourceId keeps both)", () => {
    const { data } = seriesToData(
      [
        {
          labels: [
            ["b", "2"],
            ["a", "1"],
            ["b", "3"],
          ],
          origin: 1,
          points: [point("m")],
        },
      ],
      keyOptions(),
    );
    expect(data[0]!.resourceId).toBe("a=1,b=2,b=3");
    expect(data[0]!.labels!.pairs).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("carry a line-protocol point's line, beside the pairs its series' lines share", () => {
    const usage: LineField = ["cpu", "usage", "float"];
    const count: LineField = ["cpu", "count", "integer"];
    const tags: Labels = [["host", "vm1"]];
    const [usageAt1, countAt1, usageAt2, countAt2] = labelsOf([
      { labels: tags, origin: 1, points: [point("cpu.usage", usage), point("cpu.count", count)] },
      { labels: [["host", "vm1"]], origin: 2, points: [point("cpu.usage", usage), point("cpu.count", count)] },
    ]);
    expect(usageAt1).toEqual({ pairs: tags, line: usage });
    expect(countAt1).toEqual({ pairs: tags, line: count });
    expect(usageAt2).toEqual(usageAt1);
    expect(countAt2).toEqual(countAt1);
    // One pairs array for the series at both times (queue messages table it once), one line array per line.
    for (const labels of [countAt1, usageAt2, countAt2]) expect(labels!.pairs).toBe(usageAt1!.pairs);
    expect(usageAt2!.line).toBe(usage);
  });

  describe("a primary-only pair (OTLP's resource attribute)", () => {
    const otlp = ["service.instance.id", "host.name", "service.name"];
    const withResource = (labels: Labels, resource: Labels): LabelledPoints => ({
      labels,
      primaryOnly: resource,
      origin: 1,
      points: [point("m")],
    });

    it("is among the pairs, sorted, and named as the resource attribute when it is the primary label", () => {
      const [labels] = labelsOf(
        [
          withResource(
            [
              ["zone", "z"],
              ["cpu", "0"],
            ],
            [
              ["service.name", "api"],
              ["host.name", "vm1"],
            ],
          ),
        ],
        keyOptions(otlp),
      );
      expect(labels).toEqual({
        pairs: [
          ["cpu", "0"],
          ["host.name", "vm1"],
          ["zone", "z"],
        ],
        resourceAttribute: "host.name",
      });
    });

    it("is left out when a label is the primary, or none of them is", () => {
      const resource: Labels = [["host.name", "vm1"]];
      expect(labelsOf([withResource([["host.name", "point"]], resource)], keyOptions(otlp))).toEqual([
        { pairs: [["host.name", "point"]] },
      ]);
      expect(labelsOf([withResource([["a", "1"]], resource)], keyOptions(["other"]))).toEqual([
        { pairs: [["a", "1"]] },
      ]);
    });

    it("tells data apart whose labels are the same but for where the primary came from", () => {
      const [fromResource, fromPoint] = labelsOf(
        [withResource([], [["host.name", "vm1"]]), withResource([["host.name", "vm1"]], [])],
        keyOptions(otlp),
      );
      expect(fromResource).toEqual({ pairs: [["host.name", "vm1"]], resourceAttribute: "host.name" });
      expect(fromPoint).toEqual({ pairs: [["host.name", "vm1"]] });
    });
  });

  it("are kept with the key of frozen labels, across requests", () => {
    const labels = Object.freeze<Labels>([["host", "vm1"]]);
    const options = keyOptions();
    const request = () => labelsOf([{ labels, origin: 1, points: [point("m")] }], options);
    expect(request()[0]).toBe(request()[0]);
  });

  it("are sorted, unique, the series' own pairs, and leave the resourceId as it was built", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "host", ",", "="), maxLength: 3 });
    const labels = fc.array(fc.tuple(fc.oneof(fc.constant("host"), text), text), { maxLength: 5 });
    fc.assert(
      fc.property(labels, fc.option(labels), fc.subarray(["a", "b", "host"]), (sent, resource, drop) => {
        const each: LabelledPoints = {
          labels: sent,
          ...(resource !== null && { primaryOnly: resource }),
          origin: 1,
          points: [point("m")],
        };
        const options = keyOptions(["host", "a"], drop);
        const [datum] = seriesToData([each], options).data;
        expect(datum!.resourceId).toBe(seriesResourceId(each, options));
        const { pairs, resourceAttribute } = datum!.labels!;
        const names = pairs.map(([name]) => name);
        expect(names).toEqual([...new Set(names)].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
        for (const [name, value] of pairs) {
          expect(drop).not.toContain(name);
          const source = name === resourceAttribute ? resource : sent;
          expect(source!.find(([sentName]) => sentName === name)).toEqual([name, value]);
        }
        expect(new Set(names)).toEqual(
          new Set(
            sent
              .map(([name]) => name)
              .filter((name) => !drop.includes(name))
              .concat(resourceAttribute ?? []),
          ),
        );
      }),
    );
  });
});
