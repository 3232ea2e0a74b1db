/*
 * JSON text for accumulators and summaries, which may hold NaN and the infinities: JSON has no
 * spelling for them (and SQLite keeps NaN as NULL), so they are written as the strings "NaN",
 * "Infinity" and "-Infinity" and read back as numbers.
 */

const nonFinite = new Set(["NaN", "Infinity", "-Infinity"]);

export function stringifyWithNonFinite(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "number" && !Number.isFinite(item) ? String(item) : item,
  );
}

export function parseWithNonFinite(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) =>
    typeof item === "string" && nonFinite.has(item) ? Number(item) : item,
  );
}
