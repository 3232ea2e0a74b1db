import type { Label, LineField, LineFieldType, SeriesLabels } from "../vocabulary/datum";

/*
 * The label sets of a queue message's rows (queue-message-bytes.ts), in tables, so that what many
 * rows share travels once: a line-protocol series' points share its pairs, each with a line of its
 * own; the points of many series share a few lines; and the pairs of many series share their
 * names and many of their values (a message holds a share of every series of its metrics).
 *   sets: each distinct SeriesLabels, as the index of its pair list and of its line (none: `noEntry`)
 *   pair lists: each distinct pairs array, its pair count and the place of its resource attribute
 *   pairs: the pairs of each list in turn, a name and a value, each an index into the texts
 *   lines: each distinct line, its measurement and field key (indices into the texts), its field type
 *   texts: each distinct text of the pairs and lines
 */

/** The index of no entry: a row without labels, a set without a line, a pair list without a resource attribute. */
export const noEntry = 0xffffffff;
/**
 * No entry in the tables' arrays, which hold small integers only (a number past them would make
 * every array and value of them doubles); written as `noEntry`, to which a u32 of -1 comes.
 */
export const none = -1;

/** A line's field type as a number, its index here. */
export const lineFieldTypes: readonly LineFieldType[] = ["float", "integer", "unsigned", "boolean"];
const lineFieldTypeCodes = new Map(lineFieldTypes.map((type, code) => [type, code]));

/** A set's bytes: the indices of its pair list and its line. */
export const labelSetBytes = 4 + 4;
/** A pair list's bytes besides its pairs: its count and its resource attribute's place. */
export const pairListBytes = 4 + 4;
/** A pair's bytes: the indices of its name and value. */
export const pairBytes = 4 + 4;
/** A line's bytes: the indices of its measurement and field key, its field type. */
export const lineBytes = 4 + 4 + 4;
/** A text's bytes besides its characters: its length. */
export const labelTextBytes = 4;

function resourceAttributePlace(pairs: readonly Label[], resourceAttribute: string | undefined): number {
  if (resourceAttribute === undefined) return none;
  for (let at = 0; at < pairs.length; at++) if (pairs[at]![0] === resourceAttribute) return at;
  throw new Error(`a label set's resource attribute ${JSON.stringify(resourceAttribute)} is none of its pairs`);
}

/**
 * The label tables of one message, filled row by row, with the bytes they take. What rows share is
 * found by identity, without hashing an object per row: a resource's rows mostly share one pairs
 * array (series-data.ts, the reader), which makes one pair list; a row whose list's last set has
 * its line takes that set, so rows without a line share their list's. A line-protocol point's
 * labels (an object of its own, its pairs and line those of other points) make a set of their own
 * otherwise, as they mostly would anyway: a series and a field meet about once in a message. The
 * last addition can be undone, for a row that turns out not to fit its message.
 */
export class LabelTables {
  /** Each set's pair list and line, one after the other. */
  readonly sets: number[] = [];
  /** Each pair list's pair count and the place of its resource attribute among its pairs, one after the other. */
  readonly pairLists: number[] = [];
  /** The pairs of all lists in turn, each its name's and its value's text. */
  readonly pairs: number[] = [];
  /** Each line's measurement and field key (their texts) and field type code. */
  readonly lines: number[] = [];
  readonly texts: string[] = [];
  /** The tables' bytes besides their texts. */
  fixedBytes = 0;
  /** The tables' texts' UTF-16 code units. */
  textUnits = 0;
  /** Per pair list, its pairs, its resource attribute, and its last set. */
  private readonly listPairs: (readonly Label[])[] = [];
  private readonly resourceAttributes: (string | undefined)[] = [];
  private readonly lastSetOfList: number[] = [];
  private readonly pairListIndex = new Map<readonly Label[], number>();
  /** Per resource of the message, the pair list of its last row: found again without hashing. */
  private readonly listOfResource: number[] = [];
  private readonly lineFields: LineField[] = [];
  private readonly lineIndex = new Map<LineField, number>();
  /** The line of the last row, and per line the line of the row after its last: rows of a series' fields come in turn. */
  private lastLine = none;
  private readonly lineAfter: number[] = [];
  private readonly textIndex = new Map<string, number>();
  /** The tables' sizes before the last addition, and the last set it replaced as its list's. */
  private readonly before = {
    sets: 0,
    pairLists: 0,
    pairs: 0,
    lines: 0,
    texts: 0,
    fixedBytes: 0,
    textUnits: 0,
    lastSetOfList: none,
  };

  get setCount(): number {
    return this.sets.length / 2;
  }

  get pairListCount(): number {
    return this.listPairs.length;
  }

  get pairCount(): number {
    return this.pairs.length / 2;
  }

  get lineCount(): number {
    return this.lineFields.length;
  }

  /** The index of the set of a row with `labels`, added (with what it needs) if it is new; `resource` is the row's resource. */
  add(labels: SeriesLabels, resource: number): number {
    const { before } = this;
    before.sets = this.sets.length;
    before.pairLists = this.listPairs.length;
    before.pairs = this.pairs.length;
    before.lines = this.lineFields.length;
    before.texts = this.texts.length;
    before.fixedBytes = this.fixedBytes;
    before.textUnits = this.textUnits;
    const list = this.pairListOf(labels, resource);
    const line = labels.line === undefined ? none : this.lineOf(labels.line);
    const last = this.lastSetOfList[list]!;
    if (last !== none && this.sets[2 * last + 1] === line) return last;
    const set = this.setCount;
    this.sets.push(list, line);
    before.lastSetOfList = last;
    this.lastSetOfList[list] = set;
    this.fixedBytes += labelSetBytes;
    return set;
  }

  /** Takes back what the last `add` added. */
  undo(): void {
    const { before } = this;
    for (let line = before.lines; line < this.lineFields.length; line++) this.lineIndex.delete(this.lineFields[line]!);
    for (let text = before.texts; text < this.texts.length; text++) this.textIndex.delete(this.texts[text]!);
    // Pairs an earlier list has too (with another resource attribute) are then found no more: a
    // later row of them makes a list again, which costs bytes, and is read the same.
    for (let list = before.pairLists; list < this.listPairs.length; list++) {
      this.pairListIndex.delete(this.listPairs[list]!);
    }
    const set = before.sets / 2;
    if (set < this.setCount) this.lastSetOfList[this.sets[2 * set]!] = before.lastSetOfList;
    this.sets.length = before.sets;
    this.listPairs.length = this.resourceAttributes.length = this.lastSetOfList.length = before.pairLists;
    this.pairLists.length = 2 * before.pairLists;
    this.pairs.length = before.pairs;
    this.lineFields.length = before.lines;
    this.lines.length = 3 * before.lines;
    this.texts.length = before.texts;
    this.fixedBytes = before.fixedBytes;
    this.textUnits = before.textUnits;
  }

  /** The pair list of `labels`: one per pairs array, unless their resource attribute differs. */
  private pairListOf({ pairs, resourceAttribute }: SeriesLabels, resource: number): number {
    const last = this.listOfResource[resource];
    if (last !== undefined && this.listPairs[last] === pairs && this.resourceAttributes[last] === resourceAttribute) {
      return last;
    }
    const known = this.pairListIndex.get(pairs);
    if (known !== undefined && this.resourceAttributes[known] === resourceAttribute) {
      this.listOfResource[resource] = known;
      return known;
    }
    const list = this.listPairs.length;
    this.pairListIndex.set(pairs, list);
    this.listPairs.push(pairs);
    this.resourceAttributes.push(resourceAttribute);
    this.lastSetOfList.push(none);
    this.pairLists.push(pairs.length, resourceAttributePlace(pairs, resourceAttribute));
    for (let pair = 0; pair < pairs.length; pair++) {
      const label = pairs[pair]!;
      this.pairs.push(this.textOf(label[0]), this.textOf(label[1]));
    }
    this.fixedBytes += pairListBytes + pairBytes * pairs.length;
    this.listOfResource[resource] = list;
    return list;
  }

  private lineOf(line: LineField): number {
    const after = this.lastLine === none ? undefined : this.lineAfter[this.lastLine];
    let index = after !== undefined && this.lineFields[after] === line ? after : this.lineIndex.get(line);
    if (index === undefined) {
      index = this.lineFields.length;
      this.lines.push(this.textOf(line[0]), this.textOf(line[1]), lineFieldTypeCode(line[2]));
      this.lineFields.push(line);
      this.lineIndex.set(line, index);
      this.fixedBytes += lineBytes;
    }
    if (this.lastLine !== none) this.lineAfter[this.lastLine] = index;
    this.lastLine = index;
    return index;
  }

  private textOf(text: string): number {
    const known = this.textIndex.get(text);
    if (known !== undefined) return known;
    const index = this.texts.length;
    this.texts.push(text);
    this.textIndex.set(text, index);
    this.fixedBytes += labelTextBytes;
    this.textUnits += text.length;
    return index;
  }
}

/** The code of a line's field type; an unknown type (from a caller not type-checked) is an error. */
export function lineFieldTypeCode(type: LineFieldType): number {
  const code = lineFieldTypeCodes.get(type);
  if (code === undefined) throw new Error(`${JSON.stringify(type)} is no line-protocol field type`);
  return code;
}
