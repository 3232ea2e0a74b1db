import { rulesNamespace } from "../../../src/worker/rules/document/rule-schema";

/*
 * Hand-made request bodies that cost a careless reader far more than their size: deep nesting,
 * long tokens, many keys, huge numbers, bytes that are not UTF-8, entity and gzip bombs. Each stays
 * under the default body limit of 1 MiB (but the one that is meant to be over it), so that it is
 * the reader, not the limit, that must hold.
 */

export interface AdversarialBody {
  name: string;
  headers: Record<string, string>;
  /** Built when a test sends it, not when the file is loaded. */
  body(): string | Uint8Array | Promise<Uint8Array>;
}

const json = { "content-type": "application/json" };
const xml = { "content-type": "application/xml" };

const rules = (content: string) => `<monitoringRules xmlns="${rulesNamespace}">${content}</monitoringRules>`;

/** A rule of the JSON form reading `reads` into `writes`. */
function rule(id: string, reads: string, writes: string) {
  return {
    id,
    timeStep: 60,
    timeWindow: 60,
    monitoredTargets: [{ class: "Method" }],
    collectedMetric: { metricName: reads },
    actions: [{ name: "OutputMetric", parameters: { metric: writes } }],
  };
}

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)));

/** `size` zero bytes, gzipped: a few tens of KiB that grow past every decompression limit. */
async function gzipBomb(size: number): Promise<Uint8Array> {
  const zeros = new ReadableStream<Uint8Array>({
    start(controller) {
      const chunk = new Uint8Array(1 << 20);
      for (let sent = 0; sent < size; sent += chunk.length) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Uint8Array(await new Response(zeros.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

const laughs = Array.from({ length: 9 }, (_, level) =>
  level === 0 ? '<!ENTITY l0 "ha">' : `<!ENTITY l${level} "${`&l${level - 1};`.repeat(10)}">`,
);
const cycle = 1_000;
const operators = 3_000;

/** Bodies that are JSON, or nearly: deep, long, wide, numbers beyond doubles, rule documents that cost work to check. */
export const jsonBodies: readonly AdversarialBody[] = [
  {
    name: "JSON arrays and objects nested 50,000 deep",
    body: () => `${'[{"a":'.repeat(25_000)}1${"}]".repeat(25_000)}`,
    headers: json,
  },
  {
    name: "a string and a key of 200,000 characters",
    body: () => JSON.stringify({ id: "x".repeat(200_000), ["k".repeat(200_000)]: 1 }),
    headers: json,
  },
  {
    name: "an object of 20,000 keys",
    body: () => JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, index]))),
    headers: json,
  },
  { name: "an array of 50,000 numbers", body: () => `[${"1,".repeat(49_999)}1]`, headers: json },
  {
    name: "huge numbers, one of 300,000 digits",
    body: () => `{"timestamp":1e999999,"value":-1e400,"limit":5e-324,"numberOfCPUs":${"9".repeat(300_000)}}`,
    headers: json,
  },
  {
    name: `rules feeding each other in a cycle of ${cycle}`,
    body: () =>
      JSON.stringify({
        monitoringRules: Array.from({ length: cycle }, (_, index) =>
          rule(`c${index}`, `c${index}`, `c${(index + 1) % cycle}`),
        ),
      }),
    headers: json,
  },
  {
    name: `a condition and a value of ${operators} operators`,
    body: () =>
      JSON.stringify({
        monitoringRules: [
          {
            ...rule("long-expressions", "in", "out"),
            condition: Array.from({ length: operators }, () => "METRIC > 1").join(" && "),
            actions: [
              { name: "OutputMetric", parameters: { metric: "out", value: Array(operators).fill("METRIC").join("+") } },
            ],
          },
        ],
      }),
    headers: json,
  },
];

/** Bodies that are XML: deep, wide, with entities, with long text. */
export const xmlBodies: readonly AdversarialBody[] = [
  {
    name: "XML nested 50,000 deep",
    body: () => rules(`${"<a>".repeat(50_000)}${"</a>".repeat(50_000)}`),
    headers: xml,
  },
  { name: "XML of 50,000 elements", body: () => rules("<x/>".repeat(50_000)), headers: xml },
  {
    name: "an XML entity bomb",
    body: () => `<!DOCTYPE monitoringRules [${laughs.join("")}]>${rules("<monitoringRule>&l8;</monitoringRule>")}`,
    headers: xml,
  },
  {
    name: "an XML element of 10,000 attributes",
    body: () => rules(`<monitoringRule ${Array.from({ length: 10_000 }, (_, index) => `a${index}="v"`).join(" ")}/>`),
    headers: xml,
  },
  {
    name: "XML text of 300,000 spaces between two words",
    body: () =>
      rules(
        `<monitoringRule id="r" timeStep="60" timeWindow="60"><condition>a${" ".repeat(300_000)}b</condition></monitoringRule>`,
      ),
    headers: xml,
  },
];

/** Bodies that are wrong below the syntax: bytes that are not UTF-8, control characters, too many bytes, compressed bytes. */
export const encodingBodies: readonly AdversarialBody[] = [
  {
    name: "bytes that are not UTF-8",
    body: () => bytes('{"id":"', [0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80], '"}'),
    headers: json,
  },
  {
    name: "control characters and NUL",
    body: () => '{"id":"\\u0000\\u0001\\u001f\\u007f","x":"\u0000"}',
    headers: json,
  },
  { name: "a body over the size limit", body: () => `${" ".repeat(1_100_000)}{}`, headers: json },
  { name: "a gzip bomb", body: () => gzipBomb(40 << 20), headers: { ...json, "content-encoding": "gzip" } },
];
