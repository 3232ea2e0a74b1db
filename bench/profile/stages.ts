import type { Attribution, CallFrame } from "./summary.ts";

/*
 * The stages of the data path a profile of the Worker's isolate is summed by, and which frames
 * count for which. Frames are matched by module path first (folders and name fragments rather
 * than whole file names, so that code moving within a stage stays in it) and by function name only
 * where one module holds two stages or a built-in has no module.
 */

/** The stages in the order of the path of a datum, then the isolate's own work; the report lists them so. */
export const stages = [
  "parse",
  "validate",
  "series to data",
  "encode",
  "queue",
  "consumer decode",
  "selector matching",
  "serialize",
  "send",
  "Durable Object calls",
  "delivery code",
  "recent data",
  "HTTP routing",
  "runtime and native code",
  "garbage collection",
  "other",
] as const;
export type Stage = (typeof stages)[number];

/** Time the isolate waited for work: not part of any stage, nor of the busy time. */
export const idle = "idle";

/** What each stage holds, as the report explains it. */
export const stageContents: Record<Stage, string> = {
  parse:
    "body bytes → text → JSON (UTF-8 decoding, `JSON.parse`, the depth check), or → data by a scan of the text " +
    "where intake reads data straight from it; the agents' routes and readers (gzip, snappy, protobuf, line " +
    "protocol, OTLP) up to their series",
  validate: "the RDF/JSON reader, the rules of its literals, zod",
  "series to data": "the agents' series made data: resourceIds from labels, datum ids, metric names checked",
  encode: "packing accepted data into queue messages",
  queue: "the intake sender and the queue binding's send/sendBatch",
  "consumer decode": "the consumer's `JSON.parse` of message bodies and its decoding of rows into data",
  "selector matching": "the series selectors and matching a batch's series against them (re2js included)",
  serialize: "the observer formats",
  send: "the transports and `fetch`",
  "Durable Object calls":
    "metrics, selector observers and rules code (both sides of a Durable Object call), stubs and their storage",
  "delivery code": "the rest of delivery: fan-out, attempt reports, retry schedule",
  "recent data":
    "the metrics' kept data (`GET /metrics/:id/data`): their row blocks, the leased intake a batch hands its " +
    "summary shards, which keep it until the metrics' objects take it, and the objects' storing of it",
  "HTTP routing": "Hono, the app and its middleware: authentication, limits, the JSON body middleware, routes",
  "runtime and native code": "V8's (program), and built-ins no Worker code called",
  "garbage collection": "V8's (garbage collector)",
  other: "everything else",
};

const own = (stage: Stage | typeof idle): Attribution => ({ own: stage });
const uncalled = (stage: Stage): Attribution => ({ uncalled: stage });

/** V8's pseudo-frames, which have neither module nor caller. */
const pseudoFrames = new Map<string, Attribution>([
  ["(idle)", own(idle)],
  ["(garbage collector)", own("garbage collection")],
  ["(program)", own("runtime and native code")],
  ["(root)", uncalled("runtime and native code")],
]);

/**
 * Built-ins (no module: the runtime's native code and its own scripts) by name. The queue
 * binding's sends are the queue stage whoever calls them; other built-ins count where they are
 * called from, or, called by the runtime itself, where their name says.
 */
const builtIns: readonly [RegExp, Attribution][] = [
  [/^(send|sendBatch)$/, own("queue")],
  [/^fetch$/, uncalled("send")],
  [/^(idFromName|idFromString|getByName|newUniqueId)$/, uncalled("Durable Object calls")],
];

/** Modules of the bundle by path, then function name where given; first match wins. */
const modules: readonly { path: RegExp; functionName?: RegExp; attribution: Attribution }[] = [
  { path: /\/json-(text|pars)|json-scan/, attribution: own("parse") },
  {
    path: /^src\/worker\/intake\/rdf-json\/rdf-|^src\/worker\/vocabulary\/rdf-|^node_modules\/zod\//,
    attribution: own("validate"),
  },
  { path: /^src\/worker\/intake\/common\/(series|datum-id|agent-intake)/, attribution: own("series to data") },
  {
    path: /^src\/worker\/intake\/(line-protocol|remote-write|otlp)\/|^src\/worker\/intake\/common\//,
    attribution: own("parse"),
  },
  // The message format's module holds both sides of the queue and the sending of messages.
  {
    path: /\/queue-message/,
    functionName: /decode|^read|^nextText$|^utf(8|16)Text$|^rowsToData$|^fromRow$/i,
    attribution: own("consumer decode"),
  },
  { path: /\/queue-message/, functionName: /^send/, attribution: own("queue") },
  { path: /\/queue-message/, attribution: own("encode") },
  { path: /^src\/worker\/intake\/intake-sender/, attribution: own("queue") },
  { path: /^src\/worker\/delivery\/intake-consumer/, attribution: own("consumer decode") },
  {
    path: /^src\/worker\/delivery\/selector-matching|^src\/worker\/selectors\//,
    attribution: own("selector matching"),
  },
  {
    path: /^src\/worker\/vocabulary\/row-block|^src\/worker\/summary\/(leased|pending)-intake|^src\/worker\/metrics\/recent-data/,
    attribution: own("recent data"),
  },
  { path: /^src\/worker\/delivery\/formats\//, attribution: own("serialize") },
  { path: /^src\/worker\/delivery\/transports\//, attribution: own("send") },
  { path: /^src\/worker\/delivery\//, attribution: own("delivery code") },
  {
    path: /^src\/worker\/(metrics|observers|rules)\/|^src\/worker\/intake\/metric-registry/,
    attribution: own("Durable Object calls"),
  },
  {
    path: /^src\/worker\/(app\.ts|http\/|intake\/rdf-json\/routes)|^src\/shared\/http\/|^node_modules\/hono(-openapi)?\//,
    attribution: own("HTTP routing"),
  },
  // The usage counts wrap `fetch`, and Durable Object stubs, whose RPC calls run inside the wrapper.
  { path: /^src\/worker\/common\/usage/, functionName: /fetch/i, attribution: uncalled("send") },
  { path: /^src\/worker\/common\/usage/, attribution: own("Durable Object calls") },
  // Helpers of every stage (grouping, batching, texts in bytes) work for whoever calls them.
  { path: /^src\/shared\/|^src\/worker\/common\/text-bytes|^node_modules\//, attribution: uncalled("other") },
];

/** The stage a frame of a profile of the Worker's isolate counts for; see Attribution. */
export function attributeFrame(frame: CallFrame): Attribution {
  const { functionName, url } = frame;
  if (url === "" || !/^(src|node_modules|tools)\//.test(url)) {
    const pseudo = pseudoFrames.get(functionName);
    if (pseudo) return pseudo;
    return builtIns.find(([name]) => name.test(functionName))?.[1] ?? uncalled("runtime and native code");
  }
  const rule = modules.find(
    (candidate) => candidate.path.test(url) && (candidate.functionName?.test(functionName) ?? true),
  );
  return rule?.attribution ?? own("other");
}
