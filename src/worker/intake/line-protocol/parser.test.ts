import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LineFieldType } from "../../vocabulary/datum";
import type { LabelledPoints } from "../common/series";
import { type LinePrecision, type LineProtocolResult, parseLineProtocol, refusalDetailLimit } from "./parser";
import { type CorpusCase, type CorpusField, decodeCorpus } from "./testdata/corpus";

const arrival = 1_700_000_000_000;

const parse = (text: string, precision: LinePrecision = "ns", maxPoints = 1_000) =>
  parseLineProtocol(text, precision, arrival, maxPoints);

/** The only series of a body that must be read whole. */
function onlySeries(text: string, precision?: LinePrecision): LabelledPoints {
  const result = parse(text, precision);
  expect(result.refused).toEqual([]);
  expect(result.series).toHaveLength(1);
  return result.series[0]!;
}

const refusal = (text: string) => parse(text).refused[0]?.message;

describe("a line's parts", () => {
  it("reads a Telegraf cpu line", () => {
    const text =
      "cpu,cpu=cpu-total,host=vm1 usage_user=1.5,usage_system=0.5,usage_idle=97.79338014186536," +
      "usage_iowait=0i,usage_steal=0 1700000000123456789\n";
    const result = parse(text);
    expect(result).toEqual({
      series: [
        {
          labels: [
            ["cpu", "cpu-total"],
            ["host", "vm1"],
          ],
          origin: 1,
          points: [
            {
              metric: "cpu.usage_user",
              value: 1.5,
              timestamp: 1_700_000_000_123,
              line: ["cpu", "usage_user", "float"],
            },
            {
              metric: "cpu.usage_system",
              value: 0.5,
              timestamp: 1_700_000_000_123,
              line: ["cpu", "usage_system", "float"],
            },
            {
              metric: "cpu.usage_idle",
              value: 97.79338014186536,
              timestamp: 1_700_000_000_123,
              line: ["cpu", "usage_idle", "float"],
            },
            {
              metric: "cpu.usage_iowait",
              value: 0,
              timestamp: 1_700_000_000_123,
              line: ["cpu", "usage_iowait", "integer"],
            },
            {
              metric: "cpu.usage_steal",
              value: 0,
              timestamp: 1_700_000_000_123,
              line: ["cpu", "usage_steal", "float"],
            },
          ],
        },
      ],
      refused: [],
      refusedLines: 0,
      stringFieldsSkipped: 0,
      points: 5,
      tooMany: false,
    } satisfies LineProtocolResult);
  });

  it("names a field called value after the measurement alone", () => {
    expect(onlySeries("cpu_load,host=vm1 value=0.5,short=1").points.map(({ metric }) => metric)).toEqual([
      "cpu_load",
      "cpu_load.short",
    ]);
  });

  it("reads a line without tags", () => {
    expect(onlySeries("mem used=3i")).toEqual({
      labels: [],
      origin: 1,
      points: [{ metric: "mem.used", value: 3, timestamp: arrival, line: ["mem", "used", "integer"] }],
    });
  });

  it("keeps the tags in the order sent", () => {
    expect(onlySeries("m,z=1,a=2,m=3 v=1").labels).toEqual([
      ["z", "1"],
      ["a", "2"],
      ["m", "3"],
    ]);
  });

  it("reads every kind of value", () => {
    const values = onlySeries(
      'm a=1.5,b=-2i,c=18446744073709551615u,d=t,e=FALSE,f=1e308,g=-0,h=9223372036854775807i,s="text"',
    ).points.map(({ value }) => value);
    expect(values).toEqual([1.5, -2, 2 ** 64, 1, 0, 1e308, -0, 2 ** 63]);
    expect(Object.is(values[6], -0)).toBe(true);
  });

  it("tells each point's measurement, field key and the type its value was written as", () => {
    expect(onlySeries("m\\ n,t=1 a=1.5,b\\=x=-2i,c=3u,d=t,e=FALSE,f=1,value=2").points.map(({ line }) => line)).toEqual(
      [
        ["m n", "a", "float"],
        ["m n", "b=x", "integer"],
        ["m n", "c", "unsigned"],
        ["m n", "d", "boolean"],
        ["m n", "e", "boolean"],
        ["m n", "f", "float"],
        ["m n", "value", "float"],
      ],
    );
  });

  it("gives the points of one measurement, field key and type one line array in a body, wherever they are", () => {
    const result = parse("cpu,h=a u=1,s=2i\nmem f=1\ncpu,h=b s=3i,u=4\ncpu u=5i\n");
    const [first, , third, fourth] = result.series.map(({ points }) => points.map(({ line }) => line));
    expect(third![1]).toBe(first![0]);
    expect(third![0]).toBe(first![1]);
    expect(fourth![0]).toEqual(["cpu", "u", "integer"]);
    expect(fourth![0]).not.toBe(first![0]);
  });

  it("keeps both points of a field sent twice, as InfluxData's decoder does", () => {
    expect(onlySeries("m f=1,f=2").points.map(({ value }) => value)).toEqual([1, 2]);
  });

  it("allows several spaces between the parts, before the line and after it", () => {
    expect(onlySeries("   m,t=1   f=1   1000000   ")).toEqual({
      labels: [["t", "1"]],
      origin: 1,
      points: [{ metric: "m.f", value: 1, timestamp: 1, line: ["m", "f", "float"] }],
    });
  });

  it("takes = and quotes in a measurement as they are", () => {
    expect(onlySeries('a=b"c f=1').points[0]!.metric).toBe('a=b"c.f');
  });

  it("takes characters beyond ASCII in every name", () => {
    expect(onlySeries("température,hôte=vm😀 valeur=1")).toMatchObject({
      labels: [["hôte", "vm😀"]],
      points: [{ metric: "température.valeur" }],
    });
  });
});

describe("lines that repeat the names of earlier ones", () => {
  it("reads each line's own names, whatever the previous lines held", () => {
    const text = [
      "cpu,host=a,cpu=0 user=1,system=2",
      "cpu,host=a,cpu=1 user=3,system=4",
      "cpu,host=ab,cpu=1 system=5,user=6",
      "cpux,host=a user=7",
      "cpu,host=a\\,b user=8,userx=9",
      "cpu\\ x,host=a user=10",
      "cpu,host=a value=11,user=12",
      "cpu,host=a,host=b user=13",
      "cpu,host=a user\\ x=14,user=15",
      "cpu,host=a user\\,x=16",
      "cpu,host=a user,x=17",
      "c\\,pu,host=a\\ b user=18",
      "c,pu,host=a\\ b user=19",
    ].join("\n");
    const result = parse(text);
    expect(result.refused.map(({ origin }) => origin)).toEqual([8, 11, 13]);
    expect(
      result.series.map(({ labels, points }) => [labels, points.map(({ metric, value }) => `${metric}=${value}`)]),
    ).toEqual([
      [
        [
          ["host", "a"],
          ["cpu", "0"],
        ],
        ["cpu.user=1", "cpu.system=2"],
      ],
      [
        [
          ["host", "a"],
          ["cpu", "1"],
        ],
        ["cpu.user=3", "cpu.system=4"],
      ],
      [
        [
          ["host", "ab"],
          ["cpu", "1"],
        ],
        ["cpu.system=5", "cpu.user=6"],
      ],
      [[["host", "a"]], ["cpux.user=7"]],
      [[["host", "a,b"]], ["cpu.user=8", "cpu.userx=9"]],
      [[["host", "a"]], ["cpu x.user=10"]],
      [[["host", "a"]], ["cpu=11", "cpu.user=12"]],
      [[["host", "a"]], ["cpu.user x=14", "cpu.user=15"]],
      [[["host", "a"]], ["cpu.user,x=16"]],
      [[["host", "a b"]], ["c,pu.user=18"]],
    ]);
  });
});

describe("escapes", () => {
  it("unescapes comma and space in a measurement, and nothing else", () => {
    expect(onlySeries("my\\ cpu\\,x\\=y f=1").points[0]!.metric).toBe("my cpu,x\\=y.f");
  });

  it("unescapes comma, equals and space in tag keys, tag values and field keys", () => {
    expect(onlySeries("m,k\\,1\\=\\ =v\\,1\\=\\  f\\,\\=\\ x=1")).toMatchObject({
      labels: [["k,1= ", "v,1= "]],
      points: [{ metric: "m.f,= x" }],
    });
  });

  it("keeps a backslash before any other character, and reads the next one as usual", () => {
    expect(onlySeries("m,k=a\\b\\\\,c f=1").labels).toEqual([["k", "a\\b\\,c"]]);
    expect(onlySeries("m,k=a\\\\\\ b f=1").labels).toEqual([["k", "a\\\\ b"]]);
  });

  it("reads a backslash before a separator as escaping it, so no name ends in a backslash", () => {
    expect(refusal("m\\ f=1")).toBe("unable to parse 'm\\ f=1': missing fields");
  });
});

describe("string fields", () => {
  it("skips string fields and counts them", () => {
    const result = parse('m,h=a s="x",value=1,t="y"');
    expect(result.stringFieldsSkipped).toBe(2);
    expect(result.series[0]!.points).toEqual([
      { metric: "m", value: 1, timestamp: arrival, line: ["m", "value", "float"] },
    ]);
  });

  it("accepts a line of string fields only, with no series", () => {
    const result = parse('m s="x"\nm v=1');
    expect(result).toMatchObject({ refusedLines: 0, stringFieldsSkipped: 1, points: 1 });
    expect(result.series.map(({ origin }) => origin)).toEqual([2]);
  });

  it("reads strings holding spaces, commas, equals signs, escaped quotes and backslashes", () => {
    const result = parse('m a="x, y=z",b="say \\"hi\\"",c="\\\\",d="",e="tab\\t" 1000000');
    expect(result).toMatchObject({ refusedLines: 0, stringFieldsSkipped: 5 });
  });

  it("reads newlines inside a string, and counts them as lines", () => {
    const result = parse('m s="one\ntwo\r\nthree",v=1 1000000\nm v=2\n');
    expect(result.refused).toEqual([]);
    expect(result.series.map(({ origin, points }) => [origin, points[0]!.value])).toEqual([
      [1, 1],
      [4, 2],
    ]);
  });

  it("refuses the rest of the body after a string that never ends", () => {
    const result = parse('m v=1\nm s="open,v=2\nm v=3\nm v=4');
    expect(result.series).toHaveLength(1);
    expect(result.refused).toEqual([
      { origin: 2, message: `unable to parse 'm s="open,v=2': unterminated string in field "s"` },
    ]);
  });

  it("refuses a string followed by anything but a separator", () => {
    expect(refusal('m s="x"y=1')).toBe(`unable to parse 'm s="x"y=1': invalid character "y" after the fields`);
  });
});

describe("lines", () => {
  it("skips comments, blank lines and lines of spaces", () => {
    const result = parse('# a comment, with = and "quotes"\n\n   \n  # indented\n\tm v=1\nm v=2\n#last');
    expect(result.series.map(({ origin }) => origin)).toEqual([6]);
    expect(result.refused.map(({ origin }) => origin)).toEqual([5]);
  });

  it("allows a tab in a comment, as the grammar does", () => {
    expect(parse("#\tnote\nm v=1")).toMatchObject({ refusedLines: 0, points: 1 });
  });

  it("refuses a comment holding another control character", () => {
    expect(parse("#a\u0001b\nm v=1")).toMatchObject({
      refused: [{ origin: 1, message: `unable to parse '#a\u0001b': invalid character "\\u0001" in a comment` }],
      points: 1,
    });
  });

  it("reads CRLF line endings", () => {
    const result = parse("# c\r\nm v=1\r\n\r\nm v=2 1000000\r\nm,t=x v=3   \r\n");
    expect(result.refused).toEqual([]);
    expect(result.series.map(({ origin }) => origin)).toEqual([2, 4, 5]);
  });

  it("accepts a carriage return that ends the body", () => {
    expect(parse("m v=1\r")).toMatchObject({ refusedLines: 0, points: 1 });
    expect(parse("m v=1 1000000\r")).toMatchObject({ refusedLines: 0, points: 1 });
  });

  it("refuses a carriage return alone inside the body", () => {
    const result = parse("m v=1\rm v=2\nm v=3 100\rx\n\rm v=4\nm v=5");
    expect(result.series.map(({ origin }) => origin)).toEqual([4]);
    expect(result.refused.map(({ origin, message }) => [origin, message])).toEqual([
      [1, "unable to parse 'm v=1\rm v=2': invalid timestamp"],
      [2, "unable to parse 'm v=3 100\rx': unexpected text after the timestamp"],
      [3, `unable to parse '\rm v=4': invalid character "\\r" at the start of the measurement`],
    ]);
  });

  it("reads an empty body", () => {
    expect(parse("")).toEqual({
      series: [],
      refused: [],
      refusedLines: 0,
      stringFieldsSkipped: 0,
      points: 0,
      tooMany: false,
    });
    expect(parse("\n\n# only comments\n")).toMatchObject({ series: [], refusedLines: 0 });
  });

  it("numbers each line as sent, whatever comes between", () => {
    const result = parse('m v=1\nbad\n\n# note\nm v=2\r\nm s="a\nb"\nm v=3');
    expect(result.series.map(({ origin }) => origin)).toEqual([1, 5, 8]);
    expect(result.refused.map(({ origin }) => origin)).toEqual([2]);
  });
});

describe("timestamps", () => {
  it("stamps a line without a timestamp with the arrival time", () => {
    expect(onlySeries("m v=1").points[0]!.timestamp).toBe(arrival);
    expect(onlySeries("m v=1  ").points[0]!.timestamp).toBe(arrival);
  });

  it("keeps every digit of a 19-digit nanosecond timestamp", () => {
    expect(onlySeries("m v=1 1700000000123456789").points[0]!.timestamp).toBe(1_700_000_000_123);
  });

  it("rounds a time before 1970 down", () => {
    expect(onlySeries("m v=1 -1").points[0]!.timestamp).toBe(-1);
    expect(onlySeries("m v=1 -1500000").points[0]!.timestamp).toBe(-2);
  });

  it.each([
    ["ns", "1700000000123456789", 1_700_000_000_123],
    ["us", "1700000000123456", 1_700_000_000_123],
    ["ms", "1700000000123", 1_700_000_000_123],
    ["s", "1700000000", 1_700_000_000_000],
    ["m", "28333333", 1_699_999_980_000],
    ["h", "472222", 1_699_999_200_000],
  ] as const)("reads timestamps in %s", (precision, digits, milliseconds) => {
    expect(onlySeries(`m v=1 ${digits}`, precision).points[0]!.timestamp).toBe(milliseconds);
  });

  it("refuses a timestamp whose nanoseconds do not fit 64 bits", () => {
    expect(refusal("m v=1 9223372036854775808")).toBe(
      "unable to parse 'm v=1 9223372036854775808': timestamp out of range",
    );
    expect(parse("m v=1 9223372037", "s").refused[0]!.message).toMatch(/timestamp out of range$/);
    expect(onlySeries("m v=1 9223372036854775807").points[0]!.timestamp).toBe(9_223_372_036_854);
  });

  it.each(["1.5", "12a", "1-2", "-", "--5", "0x10"])("refuses the timestamp %s", (timestamp) => {
    expect(refusal(`m v=1 ${timestamp}`)).toBe(`unable to parse 'm v=1 ${timestamp}': invalid timestamp`);
  });

  it("refuses text after the timestamp", () => {
    expect(refusal("m v=1 100 200")).toBe("unable to parse 'm v=1 100 200': unexpected text after the timestamp");
  });
});

describe("refusals", () => {
  it.each([
    [",t=1 v=1", "missing measurement"],
    ["m", "missing fields"],
    ["m ", "missing fields"],
    ["m,t=1", "missing fields"],
    ["m,t=1   ", "missing fields"],
    ["m\tv=1", `invalid character "\\t" after the measurement`],
    ["m,t=1\tv=1", `invalid character "\\t" after the tags`],
    ["m, v=1", "missing tag key"],
    ["m,=1 v=1", "missing tag key"],
    ["m,\u0001=1 v=1", `invalid character "\\u0001" in tag key`],
    ["m,host v=1", `missing '=' after tag key "host"`],
    ["m,host= v=1", `missing value of tag "host"`],
    ["m,host=a=b v=1", `invalid character "=" after the tags`],
    ["m,host=a,host=b v=1", "duplicate tag keys"],
    ["m v=1,", "missing field key"],
    ["m =1", "missing field key"],
    ["m v", `missing '=' after field key "v"`],
    ["m v 1", `missing '=' after field key "v"`],
    ["m v=", `missing value of field "v"`],
    ["m v=,w=1", `missing value of field "v"`],
    ["m v= 1", `missing value of field "v"`],
    ["m v=1.2.3", `invalid number in field "v"`],
    ["m v=1e999", `number out of range in field "v"`],
    ["m v=NaN", `unknown value type in field "v"`],
    ["m v=-Inf", `invalid number in field "v"`],
    ["m v=tru", `invalid boolean in field "v"`],
    ["m v=1.5i", `invalid integer in field "v"`],
    ["m v=9223372036854775808i", `integer out of range in field "v"`],
    ["m v=-1u", `invalid unsigned integer in field "v"`],
    ["m v=18446744073709551616u", `unsigned integer out of range in field "v"`],
  ])("refuses %j: %s", (line, problem) => {
    expect(refusal(line)).toBe(`unable to parse '${line}': ${problem}`);
  });

  it("finds duplicate tag keys among many tags", () => {
    const tags = Array.from({ length: 20 }, (_, index) => `,k${index}=v`).join("");
    expect(parse(`m${tags} v=1`).refusedLines).toBe(0);
    expect(refusal(`m${tags},k7=w v=1`)).toMatch(/duplicate tag keys$/);
  });

  it("keeps the good lines around bad ones, and names the bad ones by line number", () => {
    const result = parse("m v=1\nm v=\nm v=3\nm,t v=4\nm v=5\n");
    expect(result.series.map(({ origin }) => origin)).toEqual([1, 3, 5]);
    expect(result.refused).toEqual([
      { origin: 2, message: `unable to parse 'm v=': missing value of field "v"` },
      { origin: 4, message: `unable to parse 'm,t v=4': missing '=' after tag key "t"` },
    ]);
    expect(result).toMatchObject({ refusedLines: 2, points: 3 });
  });

  it("quotes at most 64 characters of a bad line", () => {
    const line = `m,host=${"h".repeat(100)} v=`;
    expect(refusal(line)).toBe(`unable to parse '${line.slice(0, 64)}…': missing value of field "v"`);
    const emoji = `${"x".repeat(63)}😀 v=`;
    expect(refusal(emoji)).toBe(`unable to parse '${"x".repeat(63)}…': missing value of field "v"`);
  });

  it("leaves a line's carriage return out of its quote", () => {
    expect(refusal("m v=\r\nm v=1")).toBe(`unable to parse 'm v=': missing value of field "v"`);
  });

  it("describes the first bad lines and counts the rest", () => {
    const result = parse("bad\n".repeat(refusalDetailLimit + 50));
    expect(result.refused).toHaveLength(refusalDetailLimit);
    expect(result.refused.at(-1)!.origin).toBe(refusalDetailLimit);
    expect(result.refusedLines).toBe(refusalDetailLimit + 50);
  });
});

describe("the points limit", () => {
  it("accepts a body of exactly maxPoints points", () => {
    expect(parse("m a=1,b=2\nm c=3", "ns", 3)).toMatchObject({ points: 3, tooMany: false });
  });

  it("stops at the line that goes past maxPoints", () => {
    const result = parse('m a=1,b=2\nm s="x",c=3,d=4\nbad\nm e=5', "ns", 3);
    expect(result).toMatchObject({ points: 2, tooMany: true, refusedLines: 0 });
    expect(result.series).toHaveLength(1);
  });

  it("counts only points, not lines of strings", () => {
    expect(parse('m s="x"\nm s="y"\nm v=1', "ns", 1)).toMatchObject({ points: 1, tooMany: false });
  });
});

describe("InfluxData's line-protocol corpus", () => {
  const precisions: Record<CorpusCase["precision"], LinePrecision> = {
    "1ns": "ns",
    "1µs": "us",
    "1ms": "ms",
    "1s": "s",
  };
  const nanosecondsPer: Record<CorpusCase["precision"], bigint> = {
    "1ns": 1n,
    "1µs": 1_000n,
    "1ms": 1_000_000n,
    "1s": 1_000_000_000n,
  };
  const floorMilliseconds = (nanoseconds: bigint) =>
    Number(nanoseconds / 1_000_000n - (nanoseconds % 1_000_000n < 0n ? 1n : 0n));
  /** The corpus compares floats with ==, and its JSON export writes -0 as 0. */
  const numberOf = ([, kind, value]: CorpusField) => (kind === "bool" ? (value ? 1 : 0) : Number(value) + 0);
  const byKey = (left: readonly [string, string], right: readonly [string, string]) =>
    left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0;

  it.each(decodeCorpus.map((corpusCase) => [corpusCase.key, JSON.stringify(corpusCase.text).slice(0, 60), corpusCase]))(
    "%s %s",
    (_key, _text, corpusCase) => {
      const arrivalMs = floorMilliseconds(BigInt(corpusCase.defaultTime));
      const result = parseLineProtocol(corpusCase.text, precisions[corpusCase.precision], arrivalMs, 1_000_000);
      if (corpusCase.error !== undefined) {
        // The corpus refuses the whole text; we refuse its bad lines and keep the rest.
        expect(result.refusedLines).toBeGreaterThan(0);
        return;
      }
      expect(result.refused).toEqual([]);
      const points = corpusCase.result!;
      // Our contract: string fields are skipped and counted; a line without other fields has no series.
      const strings = points.flatMap(({ fields }) => fields.filter(([, kind]) => kind === "string"));
      expect(result.stringFieldsSkipped).toBe(strings.length);
      const withData = points.filter(({ fields }) => fields.some(([, kind]) => kind !== "string"));
      expect(result.series).toHaveLength(withData.length);
      const defaultTime = BigInt(corpusCase.defaultTime);
      const truncatedDefault = defaultTime - (defaultTime % nanosecondsPer[corpusCase.precision]);
      withData.forEach((point, index) => {
        const series = result.series[index]!;
        // The corpus sorts tags by key; we keep them in the order sent.
        expect([...series.labels].sort(byKey)).toEqual(point.tags);
        const fields = point.fields.filter(([, kind]) => kind !== "string");
        expect(series.points.map(({ metric, value }) => ({ metric, value: value + 0 }))).toEqual(
          fields.map((field) => ({
            metric: field[0] === "value" ? point.name : `${point.name}.${field[0]}`,
            value: numberOf(field),
          })),
        );
        // A line without a timestamp gets the corpus's default time truncated to the precision;
        // we stamp it with the arrival time as it is.
        const stamped = floorMilliseconds(BigInt(point.time));
        const accepted = BigInt(point.time) === truncatedDefault ? [stamped, arrivalMs] : [stamped];
        for (const { timestamp } of series.points) expect(accepted).toContain(timestamp);
      });
    },
  );
});

describe("lines written by an independent encoder", () => {
  const nameCharacter = fc.constantFrom(..."abcXYZ09_-.:/é😀", ",", " ", "=", "\\", '"', "#");
  /** A name ending in a backslash cannot be written: the backslash would escape the separator after it. */
  /** Names a body repeats, some the start of others, among names of any kind. */
  const name = fc.oneof(
    fc.constantFrom("c", "cp", "cpu", "host", "value", "a b", "k=v", "x,y"),
    fc.string({ unit: nameCharacter, minLength: 1, maxLength: 6 }).filter((text) => !text.endsWith("\\")),
  );
  const measurement = name.filter((text) => !text.startsWith("#"));
  const escaped = (text: string, special: RegExp) => text.replace(special, "\\$&");

  const precision = fc.constantFrom<LinePrecision>("ns", "us", "ms", "s", "m", "h");
  const unitNanoseconds = {
    ns: 1n,
    us: 1_000n,
    ms: 1_000_000n,
    s: 1_000_000_000n,
    m: 60_000_000_000n,
    h: 3_600_000_000_000n,
  };

  type EncodedField = { key: string; text: string; value?: number; type?: LineFieldType };
  const fieldKey = fc.oneof(name, fc.constant("value"));
  const float = fc
    .tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("plain", "exponent", "upper"))
    .map(([value, style]) => {
      const text = style === "plain" ? String(value) : value.toExponential();
      return Object.is(value, -0) ? "-0" : style === "upper" ? text.toUpperCase() : text;
    });
  const value = fc.oneof(
    float.map((text) => ({ text, value: Number(text), type: "float" as const })),
    fc
      .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
      .map((n) => ({ text: `${n}i`, value: Number(n), type: "integer" as const })),
    fc
      .bigInt({ min: 0n, max: 2n ** 64n - 1n })
      .map((n) => ({ text: `${n}u`, value: Number(n), type: "unsigned" as const })),
    fc.constantFrom("t", "T", "true", "True", "TRUE").map((text) => ({ text, value: 1, type: "boolean" as const })),
    fc.constantFrom("f", "F", "false", "False", "FALSE").map((text) => ({ text, value: 0, type: "boolean" as const })),
    fc
      .string({ unit: fc.constantFrom("a", " ", ",", "=", '"', "\\", "\n", "\r\n", "é") })
      .map((text) => ({ text: `"${text.replace(/["\\]/g, "\\$&")}"`, value: undefined, type: undefined })),
  );
  const field = fc
    .tuple(fieldKey, value)
    .map(
      ([key, { text, value, type }]): EncodedField => ({ key, text: `${escaped(key, /[,= ]/g)}=${text}`, value, type }),
    );
  const spaces = fc.integer({ min: 1, max: 3 }).map((count) => " ".repeat(count));

  const line = fc.record({
    measurement,
    tags: fc.uniqueArray(fc.tuple(name, name), { maxLength: 4, selector: ([key]) => key }),
    fields: fc.array(field, { minLength: 1, maxLength: 5 }),
    timestamp: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
    gap: spaces,
    trailing: fc.constantFrom("", " ", "  "),
    before: fc.constantFrom("", "\n", "# note, with = signs\n", "   \n"),
    ending: fc.constantFrom("\n", "\r\n"),
  });

  it("reads them back as they were written", () => {
    fc.assert(
      fc.property(precision, fc.array(line, { maxLength: 8 }), (chosen, lines) => {
        let text = "";
        let lineNumber = 1;
        let strings = 0;
        const expected: LabelledPoints[] = [];
        for (const written of lines) {
          text += written.before;
          lineNumber += written.before.split("\n").length - 1;
          // The timestamp, in the chosen precision, within 64-bit nanoseconds.
          const units = written.timestamp === null ? null : written.timestamp / unitNanoseconds[chosen];
          const nanoseconds = units === null ? null : units * unitNanoseconds[chosen];
          const timestamp =
            nanoseconds === null
              ? arrival
              : Number(nanoseconds / 1_000_000n - (nanoseconds % 1_000_000n < 0n ? 1n : 0n));
          const body =
            escaped(written.measurement, /[, ]/g) +
            written.tags.map(([key, tag]) => `,${escaped(key, /[,= ]/g)}=${escaped(tag, /[,= ]/g)}`).join("") +
            written.gap +
            written.fields.map(({ text: fieldText }) => fieldText).join(",") +
            (units === null ? "" : `${written.gap}${units}`) +
            written.trailing;
          const points = written.fields.flatMap(({ key, value: fieldValue, type }) =>
            fieldValue === undefined || type === undefined
              ? []
              : [
                  {
                    metric: key === "value" ? written.measurement : `${written.measurement}.${key}`,
                    value: fieldValue,
                    timestamp,
                    line: [written.measurement, key, type] as const,
                  },
                ],
          );
          strings += written.fields.length - points.length;
          if (points.length > 0) expected.push({ labels: written.tags, origin: lineNumber, points });
          text += body + written.ending;
          lineNumber += body.split("\n").length;
        }
        const result = parseLineProtocol(text, chosen, arrival, 1_000);
        expect(result.refused).toEqual([]);
        expect(result.series).toEqual(expected);
        expect(result.stringFieldsSkipped).toBe(strings);
        expect(result.points).toBe(expected.reduce((sum, { points }) => sum + points.length, 0));
      }),
    );
  });
});
