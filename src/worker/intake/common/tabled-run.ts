import type { BytesTable } from "./bytes-table";
import { ProtobufError, type ProtobufReader, wireType } from "./protobuf-reader";

/**
 * Where the run of length-delimited fields numbered `field` ends that the reader is in, at the
 * first one's content (its tag read): at the next field of another number, or the message's end.
 */
function runEnd(reader: ProtobufReader, field: number): number {
  reader.expect(reader.type, wireType.lengthDelimited);
  reader.skip(wireType.lengthDelimited);
  while (reader.hasMore()) {
    const at = reader.offset;
    if (reader.field() !== field) {
      reader.restore(at, reader.limit);
      break;
    }
    reader.expect(reader.type, wireType.lengthDelimited);
    reader.skip(wireType.lengthDelimited);
  }
  return reader.offset;
}

/**
 * What `read` makes of a run of repeated message fields numbered `field` sent one after another (a
 * series' labels, a data point's attributes), the reader at the first one's content (its tag
 * read): found again in `table` by the run's bytes when the same run was read before. `read`
 * reads from the first field's content to the reader's end, which is the run's; the reader is then
 * after the run.
 *
 * Undefined when the run cannot be passed over (a field cut short, of another wire type): the
 * reader is then back where it was, for the caller to read field by field, which meets the first
 * error in order (an error within a field before the one that failed, say).
 */
export function tabledRun<T>(
  reader: ProtobufReader,
  field: number,
  table: BytesTable<T>,
  read: (reader: ProtobufReader) => T,
): T | undefined {
  const start = reader.offset;
  const end = reader.limit;
  const type = reader.type;
  let until: number;
  try {
    until = runEnd(reader, field);
  } catch (error) {
    if (!(error instanceof ProtobufError)) throw error;
    reader.restore(start, end, type);
    return undefined;
  }
  let value = table.find(reader.source, start, until);
  if (value === undefined) {
    reader.restore(start, until, type);
    value = read(reader);
    table.keep(reader.source, start, until, value);
  }
  reader.restore(until, end);
  return value;
}
