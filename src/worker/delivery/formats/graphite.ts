import { type LineWriter, lineSerializer, perDatumLines } from "./line-serializer";
import { formatDouble } from "./number-format";

/** Carbon parses values with Python's `float`, which reads these spellings. */
const graphiteNonFinite = { nan: "nan", infinity: "inf", negativeInfinity: "-inf" };

/** Per code point, so a character outside the BMP becomes one `_`, not two. */
const outsideGraphitePath = /[^A-Za-z0-9_.-]/gu;

/**
 * `<resourceId>.<metric> <value> <seconds>\n` (carbon's plaintext protocol). Seconds are the
 * floor of the milliseconds: carbon would take a fraction, but whole seconds are what every
 * Graphite tool writes, and flooring keeps a datum in the second it happened (also before 1970).
 */
function graphiteLineWriter(metric: string): LineWriter {
  // The dot between them is kept as it is, so each part can be cleaned on its own.
  const metricPath = metric.replace(outsideGraphitePath, "_");
  return ([, timestamp, value, resourceId]) => {
    const seconds = Math.floor(timestamp / 1000);
    const path = resourceId.replace(outsideGraphitePath, "_");
    return `${path}.${metricPath} ${formatDouble(value, graphiteNonFinite)} ${seconds}\n`;
  };
}

export const graphiteSerializer = lineSerializer("GRAPHITE", "webhook", perDatumLines(graphiteLineWriter));
