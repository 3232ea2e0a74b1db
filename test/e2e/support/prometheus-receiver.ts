import { join } from "node:path";
import { freePort } from "../../../tools/testing/free-port.ts";
import { startChildProgram, untilReady } from "./child-program.ts";
import { prometheusBinary } from "./prometheus-agent.ts";
import type { RemoteWriteBackend } from "./remote-write-chain.ts";

interface MatrixAnswer {
  status: string;
  data: { resultType: string; result: { metric: Record<string, string>; values: [number, string][] }[] };
}

/**
 * Debian's Prometheus as a server (not an agent) that receives remote write, with a fresh TSDB and
 * nothing to scrape: everything it holds came through `/api/v1/write`.
 */
export async function startPrometheusReceiver(): Promise<RemoteWriteBackend> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const program = await startChildProgram(
    prometheusBinary,
    (directory) => [
      `--config.file=${join(directory, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(directory, "data")}`,
      `--web.listen-address=${new URL(url).host}`,
      "--web.enable-remote-write-receiver",
    ],
    { "prometheus.yml": "scrape_configs: []\n" },
  );
  await untilReady(program, "the receiving Prometheus", async () => (await fetch(`${url}/-/ready`)).status === 200);
  return {
    writeUrl: `${url}/api/v1/write`,
    async read(selector) {
      // A range selector in an instant query answers the raw samples, as stored.
      const query = new URLSearchParams({ query: `${selector}[10m]`, time: String(Date.now() / 1_000) });
      const response = await fetch(`${url}/api/v1/query?${query}`);
      const answer = (await response.json()) as MatrixAnswer;
      if (answer.status !== "success") throw new Error(`query answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer.data.result.map(({ metric, values }) => ({
        labels: metric,
        samples: values.map(([seconds, value]) => [Math.round(seconds * 1_000), Number(value)]),
      }));
    },
    log: program.log,
    stop: program.stop,
  };
}
