import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../src/worker/config.ts";

/*
 * The Worker's settings are described in one place, the table of docs/API.md ("### Worker" under
 * "## Configuration"). Their defaults are written only in src/worker/config.ts; the table must
 * follow it: one row per setting, named in backticks in the first column, and a default cell
 * holding the schema's default rendered as below, optionally followed by a note in parentheses,
 * e.g. "`false` (`true` under `npm start`)" or "— (secret)".
 */

/** A default as the table writes it: in backticks, lists comma-separated, nothing as a dash. */
function rendered(value: unknown): string {
  const text = Array.isArray(value) ? value.join(",") : String(value);
  return text === "" ? "—" : `\`${text}\``;
}

const defaults: Record<string, unknown> = configSchema.parse({});
const settingNames = Object.keys(configSchema.shape);

function readDocument(path: string): string {
  return readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
}

/** The text from the heading line `heading` to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) throw new Error(`no heading ${JSON.stringify(heading)}`);
  const level = heading.indexOf(" ");
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && line.indexOf(" ") <= level && !inCodeBlock(lines, index),
  );
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

function inCodeBlock(lines: readonly string[], index: number): boolean {
  return lines.slice(0, index).filter((line) => line.trimStart().startsWith("```")).length % 2 === 1;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}

interface SettingRow {
  name: string;
  default: string;
  line: string;
}

/** The rows of the first table in `text` whose header starts with `name | default`. */
function settingsTable(text: string): SettingRow[] {
  const lines = text.split("\n");
  const header = lines.findIndex((line) => {
    const [first, second] = line.trim().startsWith("|") ? cells(line) : [];
    return first === "name" && second === "default";
  });
  if (header === -1) throw new Error("no table with the columns name and default");
  const rows: SettingRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith("|")) break;
    const [name = "", defaultCell = ""] = cells(line);
    const single = /^`([A-Z][A-Z0-9_]*)`$/.exec(name);
    if (!single) throw new Error(`a row must name one setting in backticks: ${line}`);
    rows.push({ name: single[1]!, default: defaultCell, line });
  }
  return rows;
}

/** The cell is the rendered default, alone or followed by a note in parentheses. */
function showsDefault(cell: string, expected: string): boolean {
  return cell === expected || (cell.startsWith(`${expected} (`) && cell.endsWith(")"));
}

function table(): SettingRow[] {
  return settingsTable(section(section(readDocument("docs/API.md"), "## Configuration"), "### Worker"));
}

describe("the Worker settings table of docs/API.md", () => {
  it("has exactly one row per setting of src/worker/config.ts", () => {
    const names = table().map((row) => row.name);
    expect([...names].sort()).toEqual([...settingNames].sort());
  });

  it.each(settingNames)("shows the default of %s as config.ts has it", (name) => {
    const row = table().find((candidate) => candidate.name === name);
    expect(row, `no row for ${name}`).toBeDefined();
    const expected = rendered(defaults[name]);
    expect(
      showsDefault(row!.default, expected),
      `${name}: the default cell is ${JSON.stringify(row!.default)}, expected ${JSON.stringify(expected)} ` +
        "(optionally followed by a note in parentheses)",
    ).toBe(true);
  });
});

/** The first cells of the rows of every table in `text` whose header has a `default` column. */
function firstCellsOfTablesWithDefaults(text: string): string[] {
  const lines = text.split("\n");
  const firstCells: string[] = [];
  lines.forEach((line, index) => {
    const isHeader = line.trim().startsWith("|") && /^\|[-| :]+\|$/.test(lines[index + 1]?.trim() ?? "");
    if (!isHeader || !cells(line).includes("default")) return;
    for (const row of lines.slice(index + 2)) {
      if (!row.trim().startsWith("|")) break;
      firstCells.push(cells(row)[0] ?? "");
    }
  });
  return firstCells;
}

const otherDocuments = [
  "README.md",
  ...readdirSync(new URL("../docs/", import.meta.url))
    .filter((name) => name.endsWith(".md") && name !== "API.md")
    .map((name) => `docs/${name}`),
];

describe("the Worker settings, described in docs/API.md alone", () => {
  it.each(otherDocuments)("%s has no table of them with their defaults", (path) => {
    const settingsListed = firstCellsOfTablesWithDefaults(readDocument(path)).filter((cell) =>
      settingNames.includes(cell.replaceAll("`", "")),
    );
    expect(settingsListed).toEqual([]);
  });

  it("finds a table of them in the README as it was", () => {
    const table = "| name | default | meaning |\n|---|---|---|\n| `MAX_BODY_BYTES` | `1048576` | largest body |\n";
    expect(firstCellsOfTablesWithDefaults(table)).toEqual(["`MAX_BODY_BYTES`"]);
  });
});

describe("the rendering of defaults", () => {
  it("writes numbers plainly, lists comma-separated, flags as words and nothing as a dash", () => {
    expect(rendered(1_048_576)).toBe("`1048576`");
    expect(rendered(0.5)).toBe("`0.5`");
    expect(rendered([5, 30, 120])).toBe("`5,30,120`");
    expect(rendered(false)).toBe("`false`");
    expect(rendered("")).toBe("—");
    expect(rendered([])).toBe("—");
  });

  it("tells a changed default from the documented one", () => {
    expect(showsDefault("`2000`", rendered(2_000))).toBe(true);
    expect(showsDefault("`2000` (set by `npm start`)", rendered(2_000))).toBe(true);
    expect(showsDefault("`2000`", rendered(3_000))).toBe(false);
    expect(showsDefault("`20000`", rendered(2_000))).toBe(false);
    expect(showsDefault("`false` or `true`", rendered(false))).toBe(false);
  });
});
