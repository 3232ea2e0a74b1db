import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../../tools/testing/free-port.ts";
import { startChildProgram, untilReady } from "./child-program.ts";
import type { RemoteWriteBackend } from "./remote-write-chain.ts";

/** Debian's single-node VictoriaMetrics (the `victoria-metrics` package, which .ci installs). */
const victoriaMetricsBinary = "/usr/bin/victoria-metrics";
export const hasVictoriaMetrics = existsSync(victoriaMetricsBinary);

/** A line of `/api/v1/export`. */
interface ExportedLine {
  metric: Record<string, string>;
  values: number[];
  timestamps: number[];
}

/** VictoriaMetrics on a free port with fresh storage; read back with `/api/v1/export`. */
export async function startVictoriaMetrics(): Promise<RemoteWriteBackend> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const program = await startChildProgram(victoriaMetricsBinary, (directory) => [
    `-storageDataPath=${join(directory, "data")}`,
    `-httpListenAddr=${new URL(url).host}`,
  ]);
  await untilReady(program, "VictoriaMetrics", async () => (await fetch(`${url}/health`)).status === 200);
  return {
    writeUrl: `${url}/api/v1/write`,
    async read(selector) {
      // Rows are searchable once flushed, which it does on its own about every second.
      const flushed = await fetch(`${url}/internal/force_flush`);
      if (flushed.status !== 200) throw new Error(`force_flush answered ${flushed.status}`);
      const response = await fetch(`${url}/api/v1/export?${new URLSearchParams({ "match[]": selector })}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`export answered ${response.status}: ${text}`);
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const { metric, values, timestamps } = JSON.parse(line) as ExportedLine;
          return { labels: metric, samples: timestamps.map((timestamp, index) => [timestamp, values[index]!]) };
        });
    },
    log: program.log,
    stop: program.stop,
  };
}
