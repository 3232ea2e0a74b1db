import cases from "./decode-corpus.json";

/** A field of a corpus point: 64-bit integers as decimal strings. */
export type CorpusField =
  | [key: string, kind: "float", value: number]
  | [key: string, kind: "int" | "uint", value: string]
  | [key: string, kind: "bool", value: boolean]
  | [key: string, kind: "string", value: string];

export interface CorpusPoint {
  name: string;
  /** Sorted by key. */
  tags: [key: string, value: string][];
  fields: CorpusField[];
  /** Nanoseconds since the epoch. */
  time: string;
}

/** A decoding case of InfluxData's line-protocol corpus (README.md beside this file). */
export interface CorpusCase {
  key: string;
  source: string;
  text: string;
  precision: "1ns" | "1µs" | "1ms" | "1s";
  /** Nanoseconds: the time of a line without a timestamp, truncated to the precision. */
  defaultTime: string;
  /** The reference decoder's error: some line of the text is bad. */
  error?: string;
  /** The points of the text, when every line is good. */
  result?: CorpusPoint[];
}

export const decodeCorpus = cases as unknown as CorpusCase[];
