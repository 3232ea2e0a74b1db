/*
 * The name a client probably meant when it sent one that is not known: a typo (`limt`, `fromat`)
 * is answered with the name to use instead of a bare refusal.
 */

/** Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  // Three rows of the classic table suffice: the swap looks two rows back.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      current.push(best);
    }
    [beforePrevious, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `name`, when it is close enough to be a slip: at most two edits apart,
 * and fewer edits than a third of the name (so that a short name is not "corrected" into another
 * word); the case of letters counts as no edit. Undefined when none is.
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    // No fewer edits than the lengths differ: most names of a long list are passed over unread.
    if (Math.abs(candidate.length - name.length) > 2) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance > 2 || distance * 3 > name.length) continue;
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `; did you mean "x"?` for the name of `known` closest to `name`, or nothing when none is close. */
export function didYouMean(name: string, known: readonly string[]): string {
  const meant = nearMiss(name, known);
  return meant === undefined ? "" : `; did you mean ${JSON.stringify(meant)}?`;
}
