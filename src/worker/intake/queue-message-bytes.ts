import { bytesWithTexts, knownTextEncoding, textsAt } from "../common/text-bytes";
import {
  type Datum,
  type DatumRow,
  type Label,
  type LineField,
  type SeriesLabels,
  seriesLabels,
} from "../vocabulary/datum";
import { rowValue } from "../vocabulary/row-value";
import { LabelTables, lineFieldTypes, noEntry, none } from "./queue-message-labels";

/*
 * The bytes of an intake queue message. As JSON, most of a message's cost was its numbers, each
 * timestamp and value written as decimal text and read back, and its resourceIds, written once per
 * datum. Here the numbers travel as IEEE doubles, each resourceId and label set once per message
 * (queue-message-labels.ts), and all texts (metric names, datum ids, resourceIds, labels) as one
 * string, decoded by one call and cut by lengths. A message holds data that came by one chain of
 * upstream services (`tower-edge-via`), which it names once.
 *
 * Little-endian; offsets in bytes:
 *    0  u32  layout version (3)
 *    4  u32  groups: the metrics of the message
 *    8  u32  rows: its data
 *   12  u32  resources: its distinct resourceIds
 *   16  u32  the texts' encoding: 0 UTF-8; 1 UTF-16, for texts holding an unpaired surrogate,
 *            which UTF-8 cannot carry and a datum may (JSON can)
 *   20  u32  the texts' bytes
 *   24  u32  label sets: the rows' SeriesLabels, each a pair list and a line (0: no row has labels,
 *            and the rows' label-set indices are left out)
 *   28  u32  pair lists: the pairs of the sets
 *   32  u32  pairs: those of all pair lists
 *   36  u32  lines: the line-protocol lines of the sets
 *   40  u32  label texts: the names and values of the pairs, the measurements and field keys
 *   44  u32  via ids: the upstream services the data came through, oldest first (0: none)
 *   48  f64 × rows: the timestamps; then f64 × rows: the values
 *       u32 × groups: each group's rows
 *       u32 × rows: each row's resource, an index into the resourceIds
 *       u32 × rows: each row's label set, an index into the sets, 0xFFFFFFFF for none (when there are sets)
 *       u32 × 2 × sets: each set's pair list and line (0xFFFFFFFF: none)
 *       u32 × 2 × pair lists: each list's pair count and its resource attribute's place (0xFFFFFFFF: none)
 *       u32 × 2 × pairs: the pairs of each list in turn, the label texts of its name and value
 *       u32 × 3 × lines: each line's measurement and field key (label texts) and field type (0 float,
 *            1 integer, 2 unsigned, 3 boolean)
 *       u32 × (groups + rows + resources + label texts + via ids): each text's length in UTF-16 code units
 *       the texts: the metric names, the datum ids, the resourceIds, the label texts, the via ids
 * The writer tables what rows share once (queue-message-labels.ts); the reader takes any entry as
 * it comes.
 */

/** Accepted data, grouped by metric: [metric, rows][] (an array, so any metric name is a safe key). */
export interface IntakeMessage {
  metrics: [string, DatumRow[]][];
  /** The upstream services the data came through, oldest first; absent when none. */
  via?: string[];
}

/** A run of one metric's data in a message. */
export type MessageGroup = readonly [metric: string, data: readonly Datum[]];

const layoutVersion = 3;
export const headerBytes = 48;
/** A row's bytes besides its id's text: two doubles, its resource's index and its id's length. */
const rowBytes = 8 + 8 + 4 + 4;
/** A row's label set index, which every row has once any row of its message has labels. */
const rowLabelsBytes = 4;
/** A group's bytes besides its metric's text: its row count and its name's length. */
const groupBytes = 4 + 4;
/** A resourceId's bytes besides its text: its length. */
const resourceBytes = 4;
/** A via id's bytes besides its text: its length. */
const viaIdBytes = 4;
/** The same numbers in an array twice as long. */
function grown(numbers: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(2 * numbers.length);
  larger.set(numbers);
  return larger;
}

/**
 * A message being filled datum by datum, within `maxBytes`, its size counted as it grows, with
 * its texts at `textUnitBytes` per UTF-16 code unit (1 is exact for ASCII; 3 bounds UTF-8 and
 * UTF-16 alike). Its rows are grouped by metric, each metric's in the order they came; what rows
 * share (resourceIds, label sets) is tabled once, as it is counted. Its data all came by the
 * upstream services `via`.
 */
export class MessageBuilder {
  /** The message's bytes so far, its texts counted at `textUnitBytes`. */
  size: number;
  /** The data in the order they came, and each one's group, resource and label set. */
  private readonly data: Datum[] = [];
  private groupOfDatum = new Uint32Array(1_024);
  private resourceOfDatum = new Uint32Array(1_024);
  private labelSetOfDatum = new Uint32Array(1_024);
  private readonly metrics: string[] = [];
  private readonly groupOf = new Map<string, number>();
  /** Per group, its rows. */
  private readonly groupRows: number[] = [];
  private readonly resources: string[] = [];
  private readonly resourceIndex = new Map<string, number>();
  private lastResourceId: string | undefined;
  private lastResource = 0;
  private readonly labels = new LabelTables();

  constructor(
    private readonly textUnitBytes = 1,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    private readonly via: readonly string[] = [],
  ) {
    this.size = headerBytes;
    for (const id of via) this.size += viaIdBytes + textUnitBytes * id.length;
  }

  get rows(): number {
    return this.data.length;
  }

  /** Adds `datum` (as one of `metric`) when the message then still fits, or is empty; else says so and leaves the message as it was. */
  add(datum: Datum, metric = datum.metric): boolean {
    const unit = this.textUnitBytes;
    const { labels } = this;
    const { id, resourceId, labels: datumLabels } = datum;
    const group = this.groupOf.get(metric);
    // A series' data come one after the other: its resourceId is mostly the last row's.
    const knownResource = resourceId === this.lastResourceId ? this.lastResource : this.resourceIndex.get(resourceId);
    const resource = knownResource ?? this.resources.length;
    let bytes = rowBytes + unit * id.length;
    if (group === undefined) bytes += groupBytes + unit * metric.length;
    if (knownResource === undefined) bytes += resourceBytes + unit * resourceId.length;
    let labelSet = none;
    if (datumLabels !== undefined) {
      // Once a row has labels, every row has a label-set index, those before it too.
      if (labels.setCount === 0) bytes += rowLabelsBytes * this.rows;
      const tablesBytes = labels.fixedBytes + unit * labels.textUnits;
      labelSet = labels.add(datumLabels, resource);
      bytes += labels.fixedBytes + unit * labels.textUnits - tablesBytes;
    }
    if (labels.setCount > 0) bytes += rowLabelsBytes;
    if (this.rows > 0 && this.size + bytes > this.maxBytes) {
      if (datumLabels !== undefined) labels.undo();
      return false;
    }
    const place = this.data.length;
    if (place === this.resourceOfDatum.length) {
      this.groupOfDatum = grown(this.groupOfDatum);
      this.resourceOfDatum = grown(this.resourceOfDatum);
      this.labelSetOfDatum = grown(this.labelSetOfDatum);
    }
    this.data.push(datum);
    this.resourceOfDatum[place] = resource;
    this.lastResourceId = resourceId;
    this.lastResource = resource;
    this.labelSetOfDatum[place] = labelSet;
    if (group === undefined) {
      this.groupOfDatum[place] = this.metrics.length;
      this.groupOf.set(metric, this.metrics.length);
      this.metrics.push(metric);
      this.groupRows.push(1);
    } else {
      this.groupOfDatum[place] = group;
      this.groupRows[group]! += 1;
    }
    if (knownResource === undefined) {
      this.resources.push(resourceId);
      this.resourceIndex.set(resourceId, resource);
    }
    this.size += bytes;
    return true;
  }

  /** The data's places in `data` in the order of the message's rows: by metric, each metric's as they came. */
  private order(): Uint32Array {
    const rows = this.data.length;
    const next = new Uint32Array(this.metrics.length);
    for (let group = 1; group < next.length; group++) next[group] = next[group - 1]! + this.groupRows[group - 1]!;
    const order = new Uint32Array(rows);
    for (let place = 0; place < rows; place++) order[next[this.groupOfDatum[place]!]!++] = place;
    return order;
  }

  /** The data added, in the message's order. */
  orderedData(): Datum[] {
    return Array.from(this.order(), (place) => this.data[place]!);
  }

  /** The message's bytes. */
  bytes(): Uint8Array {
    const { metrics, data, resources, labels, via } = this;
    const rows = data.length;
    const order = this.order();
    const texts: string[] = [...metrics];
    for (let index = 0; index < rows; index++) texts.push(data[order[index]!]!.id);
    for (const resourceId of resources) texts.push(resourceId);
    for (const labelText of labels.texts) texts.push(labelText);
    for (const id of via) texts.push(id);
    const labelled = labels.setCount > 0;
    const words =
      metrics.length +
      rows +
      (labelled ? rows : 0) +
      labels.sets.length +
      labels.pairLists.length +
      labels.pairs.length +
      labels.lines.length +
      texts.length;
    const textAt = headerBytes + 16 * rows + 4 * words;
    const { bytes: message, encoding, textBytes } = bytesWithTexts(textAt, texts.join(""));
    const view = new DataView(message.buffer);
    const counts = [layoutVersion, metrics.length, rows, resources.length, encoding, textBytes];
    counts.push(labels.setCount, labels.pairListCount, labels.pairCount, labels.lineCount, labels.texts.length);
    counts.push(via.length);
    for (const [index, count] of counts.entries()) view.setUint32(4 * index, count, true);
    let at = headerBytes;
    for (let index = 0; index < rows; index++) {
      const { timestamp, value } = data[order[index]!]!;
      view.setFloat64(at, timestamp, true);
      view.setFloat64(at + 8 * rows, value, true);
      at += 8;
    }
    at += 8 * rows;
    const put = (word: number) => {
      view.setUint32(at, word, true);
      at += 4;
    };
    for (const count of this.groupRows) put(count);
    for (let index = 0; index < rows; index++) put(this.resourceOfDatum[order[index]!]!);
    if (labelled) for (let index = 0; index < rows; index++) put(this.labelSetOfDatum[order[index]!]!);
    for (const index of labels.sets) put(index);
    for (const word of labels.pairLists) put(word);
    for (const index of labels.pairs) put(index);
    for (const word of labels.lines) put(word);
    for (const { length } of texts) put(length);
    return message;
  }
}

/** The message holding `groups`, which came by the upstream services `via`, whatever its size. */
export function writeMessageBytes(groups: readonly MessageGroup[], via: readonly string[] = []): Uint8Array {
  const builder = new MessageBuilder(1, Number.POSITIVE_INFINITY, via);
  for (const [metric, data] of groups) for (const datum of data) builder.add(datum, metric);
  return builder.bytes();
}

class MalformedMessageError extends Error {
  constructor(problem: string) {
    super(`malformed intake message: ${problem}`);
  }
}

/** The counts of a message's header. */
interface MessageHeader {
  groups: number;
  rows: number;
  resources: number;
  encoding: number;
  textBytes: number;
  /** Layout 2's bytes after the texts, skipped. */
  labelSets: number;
  pairLists: number;
  pairs: number;
  lines: number;
  labelTexts: number;
  viaIds: number;
}

function readHeader(bytes: Uint8Array, view: DataView): MessageHeader {
  const tooShort = () => new MalformedMessageError(`${bytes.length} bytes, shorter than its header`);
  if (bytes.length < headerBytes) throw tooShort();
  const word = (index: number) => view.getUint32(4 * index, true);
  const version = word(0);
  if (version !== layoutVersion) throw new MalformedMessageError(`layout version ${version}, not ${layoutVersion}`);
  return {
    groups: word(1),
    rows: word(2),
    resources: word(3),
    encoding: word(4),
    textBytes: word(5),
    labelSets: word(6),
    pairLists: word(7),
    pairs: word(8),
    lines: word(9),
    labelTexts: word(10),
    viaIds: word(11),
  };
}

/** Reads a message's bytes, checking that every count, index and length agrees with the others. */
function readMessageBytes(bytes: Uint8Array): IntakeMessage {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = readHeader(bytes, view);
  const { groups, rows, resources, encoding, textBytes, labelSets, pairLists, pairs, lines } = header;
  const textCount = groups + rows + resources + header.labelTexts + header.viaIds;
  const labelWords = (labelSets > 0 ? rows : 0) + 2 * labelSets + 2 * pairLists + 2 * pairs + 3 * lines;
  const countsAt = headerBytes + 16 * rows;
  const lengthsAt = countsAt + 4 * (groups + rows + labelWords);
  const textAt = lengthsAt + 4 * textCount;
  if (textAt + textBytes !== bytes.length || !knownTextEncoding(encoding, textBytes)) {
    throw new MalformedMessageError(`its header does not describe its ${bytes.length} bytes`);
  }
  const text = textsAt(bytes, textAt, textBytes, encoding);
  if (text === undefined) throw new MalformedMessageError("its texts are not UTF-8");
  let lengthAt = lengthsAt;
  let textPosition = 0;
  const nextText = () => {
    const length = view.getUint32(lengthAt, true);
    lengthAt += 4;
    textPosition += length;
    if (textPosition > text.length) throw new MalformedMessageError("its texts are shorter than their lengths");
    return text.slice(textPosition - length, textPosition);
  };
  const metricNames = Array.from({ length: groups }, nextText);
  const ids = Array.from({ length: rows }, nextText);
  const resourceIds = Array.from({ length: resources }, nextText);
  const labelSetOfRowAt = countsAt + 4 * (groups + rows);
  const labels = readLabelSets(view, header, labelSetOfRowAt + 4 * (labelSets > 0 ? rows : 0), nextText);
  const via = Array.from({ length: header.viaIds }, nextText);
  if (via.includes("")) throw new MalformedMessageError("a via id is empty");
  if (textPosition !== text.length) throw new MalformedMessageError("its texts are longer than their lengths");

  const metrics: [string, DatumRow[]][] = [];
  let row = 0;
  let countAt = countsAt;
  let resourceAt = countAt + 4 * groups;
  for (const metric of metricNames) {
    const count = view.getUint32(countAt, true);
    countAt += 4;
    if (row + count > rows) throw new MalformedMessageError("its groups hold more rows than it has");
    const data: DatumRow[] = new Array(count);
    for (let index = 0; index < count; index++, row++, resourceAt += 4) {
      const resourceId = resourceIds[view.getUint32(resourceAt, true)];
      if (resourceId === undefined) throw new MalformedMessageError(`row ${row} names no resource`);
      const timestampAt = headerBytes + 8 * row;
      const value = rowValue(view.getFloat64(timestampAt + 8 * rows, true));
      const timestamp = view.getFloat64(timestampAt, true);
      const set = labelSets === 0 ? noEntry : view.getUint32(labelSetOfRowAt + 4 * row, true);
      if (set === noEntry) {
        data[index] = [ids[row]!, timestamp, value, resourceId];
        continue;
      }
      const rowLabels = labels[set];
      if (rowLabels === undefined) throw new MalformedMessageError(`row ${row} names no label set`);
      data[index] = [ids[row]!, timestamp, value, resourceId, rowLabels];
    }
    metrics.push([metric, data]);
  }
  if (row !== rows) throw new MalformedMessageError("its groups hold fewer rows than it has");
  return via.length > 0 ? { metrics, via } : { metrics };
}

/**
 * The label sets of a message whose tables start at `at` (sets, pair lists, pairs, lines), the
 * label texts taken by `nextText`: each set one frozen SeriesLabels, its pairs and its line shared
 * with the other sets of the same pair list and line.
 */
function readLabelSets(
  view: DataView,
  { labelSets, pairLists, pairs, lines, labelTexts }: MessageHeader,
  at: number,
  nextText: () => string,
): SeriesLabels[] {
  const texts = Array.from({ length: labelTexts }, nextText);
  const textAt = (wordAt: number) => {
    const labelText = texts[view.getUint32(wordAt, true)];
    if (labelText === undefined) throw new MalformedMessageError("a label names no text");
    return labelText;
  };
  const pairListsAt = at + 8 * labelSets;
  const pairsAt = pairListsAt + 8 * pairLists;
  const linesAt = pairsAt + 8 * pairs;
  const lists: { pairs: Label[]; resourceAttributeAt: number }[] = [];
  let pair = 0;
  for (let list = 0; list < pairLists; list++) {
    const count = view.getUint32(pairListsAt + 8 * list, true);
    const resourceAttributeAt = view.getUint32(pairListsAt + 8 * list + 4, true);
    if (pair + count > pairs) throw new MalformedMessageError("its pair lists hold more pairs than it has");
    if (resourceAttributeAt !== noEntry && resourceAttributeAt >= count) {
      throw new MalformedMessageError(`pair list ${list} has no pair ${resourceAttributeAt}`);
    }
    const listPairs: Label[] = new Array(count);
    for (let index = 0; index < count; index++, pair++) {
      listPairs[index] = [textAt(pairsAt + 8 * pair), textAt(pairsAt + 8 * pair + 4)];
    }
    lists.push({ pairs: listPairs, resourceAttributeAt });
  }
  if (pair !== pairs) throw new MalformedMessageError("its pair lists hold fewer pairs than it has");
  const readLines: LineField[] = [];
  for (let line = 0; line < lines; line++) {
    const lineAt = linesAt + 12 * line;
    const type = lineFieldTypes[view.getUint32(lineAt + 8, true)];
    if (type === undefined) throw new MalformedMessageError(`line ${line} has no field type`);
    readLines.push([textAt(lineAt), textAt(lineAt + 4), type]);
  }
  return Array.from({ length: labelSets }, (_, set) => {
    const list = lists[view.getUint32(at + 8 * set, true)];
    const lineIndex = view.getUint32(at + 8 * set + 4, true);
    const line = lineIndex === noEntry ? undefined : readLines[lineIndex];
    if (list === undefined || (lineIndex !== noEntry && line === undefined)) {
      throw new MalformedMessageError(`label set ${set} names no pair list or no line`);
    }
    const { pairs: setPairs, resourceAttributeAt } = list;
    const resourceAttribute = resourceAttributeAt === noEntry ? undefined : setPairs[resourceAttributeAt]![0];
    return seriesLabels(setPairs, line, resourceAttribute);
  });
}

/** A message's body as the consumer gets it: these bytes. */
export function readIntakeMessage(body: unknown): IntakeMessage {
  if (body instanceof ArrayBuffer) return readMessageBytes(new Uint8Array(body));
  if (ArrayBuffer.isView(body)) return readMessageBytes(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  throw new MalformedMessageError(`a body of type ${typeof body}, not bytes`);
}
