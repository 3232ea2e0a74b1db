import { describe, expect, it } from "vitest";
import { attributeFrame } from "./stages.ts";

const frame = (url: string, functionName = "f") => attributeFrame({ url, functionName, lineNumber: 1 });

describe("the stages of the agents' intake", () => {
  it("counts the agents' readers and their routes as parse", () => {
    expect(frame("src/worker/intake/line-protocol/parser.ts")).toEqual({ own: "parse" });
    expect(frame("src/worker/intake/line-protocol/write-routes.ts", "bodyText")).toEqual({ own: "parse" });
    expect(frame("src/worker/intake/remote-write/snappy.ts")).toEqual({ own: "parse" });
    expect(frame("src/worker/intake/otlp/metrics-protobuf.ts")).toEqual({ own: "parse" });
    expect(frame("src/worker/intake/common/protobuf-reader.ts")).toEqual({ own: "parse" });
    expect(frame("src/worker/intake/common/decompress.ts")).toEqual({ own: "parse" });
  });

  it("counts making data of their series apart: keys, ids, metric names", () => {
    for (const module of ["series-data", "datum-id", "agent-intake"]) {
      expect(frame(`src/worker/intake/common/${module}.ts`)).toEqual({ own: "series to data" });
    }
  });

  it("leaves RDF/JSON's stages as they were", () => {
    expect(frame("src/worker/intake/rdf-json/rdf-json-reader.ts")).toEqual({ own: "validate" });
    expect(frame("src/worker/intake/rdf-json/routes.ts")).toEqual({ own: "HTTP routing" });
  });
});

describe("the stages of a selector observer's delivery", () => {
  it("counts the selectors and the matching of series against them as selector matching", () => {
    expect(frame("src/worker/delivery/selector-matching.ts")).toEqual({ own: "selector matching" });
    expect(frame("src/worker/selectors/series-matcher.ts")).toEqual({ own: "selector matching" });
  });

  it("counts the selector observers' objects as Durable Object calls", () => {
    expect(frame("src/worker/observers/selector-observer-object.ts")).toEqual({ own: "Durable Object calls" });
  });
});

describe("the stages of the queue hop", () => {
  it("counts reading a message as the consumer's decoding, and building one as encoding", () => {
    for (const reader of [
      "readMessageBytes",
      "readLabelSets",
      "readIntakeMessage",
      "nextText",
      "utf8Text",
      "rowsToData",
    ]) {
      expect(frame("src/worker/intake/queue-message-bytes.ts", reader)).toEqual({ own: "consumer decode" });
    }
    for (const writer of ["add", "bytes", "encodeIntakeMessages"]) {
      expect(frame("src/worker/intake/queue-message-bytes.ts", writer)).toEqual({ own: "encode" });
    }
  });
});

describe("the stages of the metrics' kept data", () => {
  it("counts row blocks, the leased intake and the objects' recent data as recent data", () => {
    for (const module of [
      "vocabulary/row-block",
      "summary/leased-intake",
      "summary/pending-intake",
      "metrics/recent-data",
    ]) {
      expect(frame(`src/worker/${module}.ts`)).toEqual({ own: "recent data" });
    }
  });

  it("counts texts written into bytes for whoever writes them", () => {
    expect(frame("src/worker/common/text-bytes.ts", "bytesWithTexts")).toEqual({ uncalled: "other" });
  });
});
