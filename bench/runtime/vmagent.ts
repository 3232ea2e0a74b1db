import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../tools/testing/free-port.ts";
import { receiverHost } from "../load/receivers/receivers.ts";
import { ProcessGroup } from "./process-accounting.ts";
import { spawnProgram } from "./spawned-program.ts";

/** VictoriaMetrics' vmagent forwarding remote write to one URL: the anchor of a pipeline hop. */
export interface Vmagent {
  /** Its base URL; remote write goes to `/api/v1/write`. */
  url: string;
  /** Its process, for its CPU time. */
  process: ProcessGroup;
  stop(): Promise<void>;
}

const startTimeoutMs = 30_000;

/** vmagent's command line: its defaults but where it listens, forwards and buffers. */
export function vmagentArguments(port: number, writeUrl: string, dataPath: string): string[] {
  return [
    `-httpListenAddr=${receiverHost}:${port}`,
    `-remoteWrite.url=${writeUrl}`,
    `-remoteWrite.tmpDataPath=${dataPath}`,
  ];
}

/** vmagent from `binary` forwarding to `writeUrl`, with a buffer directory of its own; undefined without the binary. */
export async function startVmagent(binary: string, writeUrl: string): Promise<Vmagent | undefined> {
  if (!existsSync(binary)) return undefined;
  const dataPath = await mkdtemp(join(tmpdir(), "tower-edge-vmagent-"));
  const port = await freePort();
  const url = `http://${receiverHost}:${port}`;
  try {
    const program = await spawnProgram(
      binary,
      vmagentArguments(port, writeUrl, dataPath),
      process.env,
      async () => (await fetch(`${url}/health`)).status === 200,
      startTimeoutMs,
    );
    return {
      url,
      process: new ProcessGroup("vmagent", [{ pid: program.pid, comm: "vmagent", cmdline: binary }]),
      async stop() {
        await program.stop();
        await rm(dataPath, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataPath, { recursive: true, force: true });
    throw error;
  }
}
