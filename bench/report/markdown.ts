/** A number with thousands separators; "–" for a figure that could not be measured (NaN, ±∞). */
export function fixed(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** A difference with its sign, "+" included (see fixed). */
export function signed(value: number, digits: number): string {
  return `${value >= 0 ? "+" : ""}${fixed(value, digits)}`;
}

/** A markdown table whose first `textColumns` columns are left-aligned and the rest (figures) right-aligned. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  textColumns = 1,
): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const alignment = header.map((_, column) => (column < textColumns ? "---" : "---:"));
  return [line(header), line(alignment), ...rows.map(line)];
}
