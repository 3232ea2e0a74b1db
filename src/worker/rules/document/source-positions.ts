/**
 * Lines and columns of offsets in one text, as XML counts them: any of CR LF, CR and LF ends a
 * line; columns count characters (code points), as people do. Each lookup costs a binary search,
 * so that a document with thousands of problems on one long line is answered as fast as any.
 */
export class SourcePositions {
  private readonly lineStarts = [0];
  /** Where each surrogate pair begins: one character, but two UTF-16 code units. */
  private readonly pairStarts: number[] = [];

  constructor(source: string) {
    for (const lineEnd of source.matchAll(/\r\n|\r|\n/g)) this.lineStarts.push(lineEnd.index + lineEnd[0].length);
    for (const pair of source.matchAll(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)) this.pairStarts.push(pair.index);
  }

  /** "line L, column C" of the character at `offset` (in UTF-16 code units), both counted from 1. */
  describe(offset: number): string {
    const line = countAtOrBelow(this.lineStarts, offset) - 1;
    const lineStart = this.lineStarts[line]!;
    // The pairs wholly between the line's start and the offset; no pair straddles a line's start.
    const pairsBefore = countAtOrBelow(this.pairStarts, offset - 2) - countAtOrBelow(this.pairStarts, lineStart - 1);
    return `line ${line + 1}, column ${offset - lineStart - pairsBefore + 1}`;
  }
}

/** How many of the ascending `values` are at most `limit`. */
function countAtOrBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
