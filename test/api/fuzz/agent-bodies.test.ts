import fc from "fast-check";
import SnappyJS from "snappyjs";
import { describe, expect, it } from "vitest";
import { ProtobufWriter } from "../../../src/worker/intake/common/testing/protobuf-writer";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder";
import { agentRoutes, gzip, otlpJsonRoute, remoteWriteRoute } from "../support/agent-routes";
import { fuzzTimeoutMs, objectPrototypeKeys } from "../support/fuzz";
import { check, checkAll, type Probe } from "../support/route-fuzzing";

/*
 * The agents' routes against bodies built for their own readers: snappy blocks that lie about
 * their length or point before their start, protobuf that declares more than it holds, nests
 * without end or never ends a varint or a group, line protocol and OTLP JSON at the sizes that
 * cost a careless reader most, decompression bombs under and over MAX_DECOMPRESSED_BYTES, and
 * random or damaged versions of valid bodies. Every answer is a success or a refusal, never a
 * server error, and a refused body changes nothing.
 */

const metric = "fuzzed.agent";
const protobufType = "application/x-protobuf";
/** Remote write's headers: a protobuf body in a snappy block. */
const snappyProtobuf = { "content-type": protobufType, "content-encoding": "snappy" };
const lineProtocolType = "text/plain; charset=utf-8";
const mebibyte = 1 << 20;

/** The parts one after the other (many of them: no spreading into arguments). */
function concat(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
const varint = (value: number | bigint) => new ProtobufWriter().varint(value).finish();

/** A snappy block from its declared length and its elements, written by hand. */
const snappyBlock = (declared: number, elements: readonly (readonly number[])[]) =>
  concat([varint(declared), ...elements]);
/** `count` times `element`. */
const times = (count: number, element: readonly number[]) => Array.from({ length: count }, () => element);
/** A snappy literal of `bytes` (at most 60). */
const literal = (...bytes: number[]) => [(bytes.length - 1) << 2, ...bytes];
/** A snappy copy of 64 bytes from `offset` back (two-byte offset). */
const copy64 = (offset: number) => [(63 << 2) | 2, offset & 0xff, offset >> 8];

/** Messages nested `depth` deep, by the fields `fields` (outermost first, repeated), around `innermost`. */
function nested(fields: readonly number[], depth: number, innermost: Uint8Array): Uint8Array {
  const prefixes: Uint8Array[] = [];
  let length = innermost.length;
  for (let level = depth - 1; level >= 0; level--) {
    const prefix = new ProtobufWriter()
      .tag(fields[level % fields.length]!, 2)
      .varint(length)
      .finish();
    prefixes.push(prefix);
    length += prefix.length;
  }
  return concat([...prefixes.reverse(), innermost]);
}

const validWriteRequest = () =>
  encodeWriteRequest([
    { labels: { __name__: metric, instance: "vm1" }, samples: [{ value: 1, timestamp: 1_700_000_000_000 }] },
  ]);

/** An OTLP request of one datum whose resource's one attribute is `value`, an AnyValue given as protobuf bytes. */
function otlpWithAttribute(value: Uint8Array): Uint8Array {
  const attribute = new ProtobufWriter().stringField(1, "host.name").bytesField(2, value);
  const point = new ProtobufWriter().fixed64Field(3, 1_700_000_000_000_000_000n).doubleField(4, 1);
  const gauge = new ProtobufWriter().messageField(1, point);
  const metricMessage = new ProtobufWriter().stringField(1, metric).messageField(5, gauge);
  const resourceMetrics = new ProtobufWriter()
    .messageField(1, new ProtobufWriter().messageField(1, attribute))
    .messageField(2, new ProtobufWriter().messageField(2, metricMessage));
  return new ProtobufWriter().messageField(1, resourceMetrics).finish();
}

/** Protobuf that no reader may trust: each case as the bytes of a message, before any compression. */
const hostileProtobuf: [string, () => Uint8Array][] = [
  [
    "a field declaring 2 GiB",
    () =>
      concat([
        new ProtobufWriter()
          .tag(1, 2)
          .varint(2 ** 31)
          .finish(),
        [1, 2, 3],
      ]),
  ],
  ["a varint that never ends", () => concat([[0x08], new Array(64).fill(0xff)])],
  ["a group that is never closed", () => new ProtobufWriter().tag(1, 3).tag(2, 0).varint(1).finish()],
  ["wire types 6 and 7", () => concat([[(1 << 3) | 6, 0, (2 << 3) | 7, 0]])],
  ["field number 0", () => concat([[0x02, 0x01, 0x00]])],
  ["messages nested 100,000 deep", () => nested([1], 100_000, new Uint8Array())],
];

/** A POST of `body` to `path` with `headers`. */
const post = (what: string, path: string, body: BodyInit, headers: Record<string, string>): Probe => ({
  what,
  method: "POST",
  path,
  init: { body, headers },
});

/** The same in snappy, as remote write sends it, and as it is for OTLP. */
const protobufProbes = (name: string, bytes: () => Uint8Array): Probe[] => [
  post(`${name} (remote write)`, remoteWriteRoute.path, SnappyJS.compress(bytes()), snappyProtobuf),
  post(`${name} (OTLP)`, "/otlp/v1/metrics", bytes(), { "content-type": protobufType }),
];

/** Snappy blocks that lie: each sent to remote write. */
const hostileSnappy: [string, () => Uint8Array][] = [
  [
    "a valid block cut in half",
    () => {
      const valid = SnappyJS.compress(validWriteRequest());
      return valid.slice(0, Math.floor(valid.length / 2));
    },
  ],
  ["a block declaring 4 GiB", () => snappyBlock(2 ** 32 - 1, [literal(0)])],
  [
    "a block declaring 1 GiB over a megabyte of copies",
    () => snappyBlock(2 ** 30, [literal(0), ...times(300_000, copy64(1))]),
  ],
  ["a copy from before the block's start", () => snappyBlock(68, [literal(1, 2, 3, 4), copy64(100)])],
  ["copies writing past the declared length", () => snappyBlock(8, [literal(0), copy64(1)])],
  ["a copy with offset 0", () => snappyBlock(68, [literal(1, 2, 3, 4), copy64(0)])],
  ["an empty body", () => new Uint8Array()],
  ["a declared length whose varint never ends", () => new Uint8Array(16).fill(0xff)],
  // Within MAX_DECOMPRESSED_BYTES: 20 MiB of zeros from copies, which no WriteRequest reads.
  [
    "20 MiB of copies",
    () => {
      const copies = 20 * 16_384 - 1;
      return snappyBlock(1 + 64 * copies, [literal(0), ...times(copies, copy64(1))]);
    },
  ],
];

/** `text` repeated to `size` bytes (a multiple of a mebibyte), gzipped. */
function gzippedRepeats(size: number, text: string): Promise<Uint8Array> {
  const chunk = new TextEncoder().encode(text.repeat(mebibyte / text.length));
  return gzip(...Array.from({ length: size / mebibyte }, () => chunk));
}

/** `body` to both line protocol routes. */
const lineProbes = (what: string, body: string | Uint8Array, encoding?: string): Probe[] =>
  ["/write", "/api/v2/write"].map((path) =>
    post(what, path, body, {
      "content-type": lineProtocolType,
      ...(encoding ? { "content-encoding": encoding } : {}),
    }),
  );

/** Line protocol at the sizes that cost a careless reader most. */
const hostileLines: [string, () => string][] = [
  [
    "200,000 fields on one line (over MAX_AGENT_DATA_PER_REQUEST)",
    () => `${metric} ${Array.from({ length: 200_000 }, (_, index) => `f${index}=1`).join(",")}`,
  ],
  ["a tag value of 500,000 escaped spaces ending in a backslash", () => `${metric},t=${"\\ ".repeat(250_000)}\\ f=1`],
  ["a timestamp of 400 digits", () => `${metric} f=1 ${"9".repeat(400)}`],
  ["50,000 lines without fields", () => `${metric}\n`.repeat(50_000)],
  ["a string field of 900,000 characters", () => `${metric} f="${"x".repeat(900_000)}"`],
  ["a field value of 300,000 digits", () => `${metric} f=${"9".repeat(300_000)}`],
];

/** OTLP JSON that nests or counts beyond reason. */
const hostileOtlpJson: [string, () => string][] = [
  [
    "an attribute value nested 50,000 deep",
    () => {
      const depth = 50_000;
      const value = `${'{"arrayValue":{"values":['.repeat(depth)}{"stringValue":"x"}${"]}}".repeat(depth)}`;
      return `{"resourceMetrics":[{"resource":{"attributes":[{"key":"host.name","value":${value}}]},"scopeMetrics":[{"metrics":[{"name":"${metric}","gauge":{"dataPoints":[{"timeUnixNano":"1700000000000000000","asDouble":1}]}}]}]}]}`;
    },
  ],
  [
    "integers beyond 64 bits",
    () =>
      `{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"name":"${metric}","sum":{"dataPoints":[{"timeUnixNano":"${"9".repeat(400)}","asInt":"${"9".repeat(400)}"}]}}]}]}]}`,
  ],
  ["100,000 empty resource metrics", () => `{"resourceMetrics":[${Array(100_000).fill("{}").join(",")}]}`],
];

const sendAll = async (probes: Probe[]) => {
  const prototypeBefore = objectPrototypeKeys();
  await checkAll(() => probes);
  expect(objectPrototypeKeys()).toEqual(prototypeBefore);
};

describe("the agents' routes", () => {
  it.each(hostileProtobuf)(
    "answer protobuf with %s without a server error",
    async (name, bytes) => {
      await sendAll(protobufProbes(name, bytes));
    },
    fuzzTimeoutMs,
  );

  it(
    "answer an OTLP attribute value nested 100,000 deep without a server error",
    async () => {
      const anyValue = nested([5, 1], 200_000, new ProtobufWriter().stringField(1, "x").finish());
      await sendAll([
        post("an attribute nested 100,000 deep", "/otlp/v1/metrics", otlpWithAttribute(anyValue), {
          "content-type": protobufType,
        }),
      ]);
    },
    fuzzTimeoutMs,
  );

  it.each(hostileSnappy)(
    "answer remote write's snappy with %s without a server error",
    async (name, body) => {
      await sendAll([post(name, remoteWriteRoute.path, body(), snappyProtobuf)]);
    },
    fuzzTimeoutMs,
  );

  it.each(hostileLines)(
    "answer line protocol with %s without a server error",
    async (name, body) => {
      await sendAll(lineProbes(name, body()));
    },
    fuzzTimeoutMs,
  );

  it.each(hostileOtlpJson)(
    "answer OTLP JSON with %s without a server error",
    async (name, body) => {
      await sendAll([post(name, otlpJsonRoute.path, body(), { "content-type": "application/json" })]);
    },
    fuzzTimeoutMs,
  );

  it(
    "answer gzip bombs within MAX_DECOMPRESSED_BYTES, and over it, without a server error",
    async () => {
      for (const [what, size] of [
        ["16 MiB gzipped", 16 * mebibyte],
        ["40 MiB gzipped", 40 * mebibyte],
      ] as const) {
        const zeros = await gzippedRepeats(size, "\u0000");
        const lines = await gzippedRepeats(size, "m\n");
        await sendAll([
          ...agentRoutes.map((route) => ({
            what: `${what} of zeros to ${route.name}`,
            method: "POST",
            path: route.path,
            init: route.sendGzip(zeros),
          })),
          ...lineProbes(`${what} of lines without fields`, lines, "gzip"),
        ]);
      }
    },
    fuzzTimeoutMs,
  );

  it(
    "answer InfluxDB queries of any size and statement without a server error",
    async () => {
      const queries = [
        "x".repeat(500_000),
        "SHOW DATABASES;".repeat(10_000),
        "CREATE DATABASE \u0000",
        ";;;;",
        `CREATE DATABASE "${"\\".repeat(1_000)}`,
      ];
      await sendAll(
        queries.flatMap((q, turn) => [
          {
            what: `q of ${q.length} characters in the query string`,
            method: "GET",
            path: `${turn % 2 ? "/v1" : ""}/query?q=${encodeURIComponent(q.slice(0, 20_000))}`,
          },
          {
            what: `q of ${q.length} characters in a form body`,
            method: "POST",
            path: "/query",
            init: {
              body: new URLSearchParams({ q }).toString(),
              headers: { "content-type": "application/x-www-form-urlencoded" },
            },
          },
        ]),
      );
    },
    fuzzTimeoutMs,
  );

  it(
    "answer random and damaged bodies under each agent's content type without a server error",
    async () => {
      const damage = fc.oneof(
        fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
        fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
        fc.record({ kind: fc.constant("random" as const), bytes: fc.uint8Array({ maxLength: 4_000 }) }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.nat(agentRoutes.length - 1),
          fc.integer({ min: 1, max: 50 }),
          damage,
          async (pick, count, change) => {
            const route = agentRoutes[pick]!;
            const valid = route.send(metric, count);
            const original =
              typeof valid.body === "string" ? new TextEncoder().encode(valid.body) : (valid.body as Uint8Array);
            const body =
              change.kind === "random"
                ? change.bytes
                : change.kind === "cut"
                  ? original.slice(0, change.at % original.length)
                  : original.map((byte, index) => (index === change.at % original.length ? byte ^ change.bits : byte));
            await check({ what: `a ${change.kind} body`, method: "POST", path: route.path, init: { ...valid, body } });
          },
        ),
        { numRuns: 25, interruptAfterTimeLimit: 15_000 },
      );
    },
    fuzzTimeoutMs,
  );
});
