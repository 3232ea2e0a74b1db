/*
 * The Prometheus text exposition format (version 0.0.4): one block per metric family, with its
 * HELP and TYPE lines and a sample per label set. Written here rather than with a client library
 * because those depend on Node's runtime, which the Worker does not have.
 */

export const prometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Record<string, string>;

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge";
  samples: { labels: Labels; value: number }[];
}

function escapeLabelValue(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll('"', '\\"');
}

function escapeHelp(help: string): string {
  return help.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function sampleLine(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([label, text]) => `${label}="${escapeLabelValue(text)}"`);
  return `${name}${pairs.length > 0 ? `{${pairs.join(",")}}` : ""} ${formatValue(value)}`;
}

export function renderExposition(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(sampleLine(family.name, sample.labels, sample.value));
  }
  return lines.map((line) => `${line}\n`).join("");
}
