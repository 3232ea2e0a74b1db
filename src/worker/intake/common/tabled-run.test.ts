import { describe, expect, it } from "vitest";
import { BytesTable } from "./bytes-table";
import { ProtobufReader, wireType } from "./protobuf-reader";
import { tabledRun } from "./tabled-run";
import { ProtobufWriter } from "./testing/protobuf-writer";

/** The strings of a run of string fields, frozen so that the table keeps them. */
function readStrings(reader: ProtobufReader): readonly string[] {
  const strings = [reader.string()];
  while (reader.hasMore()) {
    reader.field();
    strings.push(reader.string());
  }
  return Object.freeze(strings);
}

/** A reader at the first field's content, its tag read. */
function atFirstField(bytes: Uint8Array): ProtobufReader {
  const reader = new ProtobufReader(bytes);
  reader.field();
  return reader;
}

describe("tabledRun", () => {
  it("reads a run up to the next field of another number, and leaves the reader after it", () => {
    const bytes = new ProtobufWriter().stringField(1, "a").stringField(1, "b").varintField(2, 7).finish();
    const reader = atFirstField(bytes);
    expect(tabledRun(reader, 1, new BytesTable<readonly string[]>(8, 64), readStrings)).toEqual(["a", "b"]);
    expect(reader.field()).toBe(2);
    expect(reader.varint()).toBe(7);
  });

  it("finds a run read before by its bytes, in another message too", () => {
    const table = new BytesTable<readonly string[]>(8, 64);
    const run = new ProtobufWriter().stringField(1, "a").stringField(1, "b");
    const first = tabledRun(atFirstField(run.finish()), 1, table, readStrings);
    const later = atFirstField(
      new ProtobufWriter().stringField(1, "a").stringField(1, "b").stringField(3, "c").finish(),
    );
    expect(tabledRun(later, 1, table, () => ["read again"])).toBe(first);
    expect(later.field()).toBe(3);
  });

  it.each([
    [
      "a field cut short",
      new ProtobufWriter()
        .stringField(1, "a")
        .raw(Uint8Array.of(0x0a, 9, 1))
        .finish(),
    ],
    ["a field of another wire type", new ProtobufWriter().stringField(1, "a").varintField(1, 1).finish()],
    ["a tag cut short", new ProtobufWriter().stringField(1, "a").raw(Uint8Array.of(0x80)).finish()],
  ])("gives nothing for a run with %s, the reader back where it was", (_, bytes) => {
    const reader = atFirstField(bytes);
    expect(tabledRun(reader, 1, new BytesTable<readonly string[]>(8, 64), readStrings)).toBeUndefined();
    expect(reader.offset).toBe(1);
    expect(reader.type).toBe(wireType.lengthDelimited);
    expect(reader.string()).toBe("a");
  });

  it("gives nothing for a first field of another wire type", () => {
    const reader = atFirstField(new ProtobufWriter().varintField(1, 1).finish());
    expect(tabledRun(reader, 1, new BytesTable<readonly string[]>(8, 64), readStrings)).toBeUndefined();
    expect(reader.type).toBe(wireType.varint);
  });
});
