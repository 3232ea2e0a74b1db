import { once } from "node:events";
import { createServer } from "node:net";

export interface Listener {
  /** What listens there, for the message: "the Worker", "the relay". */
  what: string;
  host: string;
  port: number;
}

export class PortInUseError extends Error {
  override readonly name = "PortInUseError";
}

async function isFree({ host, port }: Listener): Promise<boolean> {
  const server = createServer();
  server.listen(port, host);
  try {
    await once(server, "listening");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return false;
    throw error;
  }
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/**
 * Throws a PortInUseError naming every port some other process listens on. The launcher checks
 * before starting anything: something already there, such as a launcher of an earlier run,
 * would answer the requests meant for this one.
 */
export async function assertPortsFree(listeners: readonly Listener[]): Promise<void> {
  const taken: Listener[] = [];
  for (const listener of listeners) if (!(await isFree(listener))) taken.push(listener);
  if (taken.length > 0) {
    const lines = taken.map(({ what, host, port }) => `  ${host}:${port} (${what}) is in use by another process`);
    throw new PortInUseError(
      `cannot start:\n${lines.join("\n")}\nStop that process, or choose other ports (PORT, RELAY_PORT).`,
    );
  }
}
