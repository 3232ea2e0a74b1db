import { readFile } from "node:fs/promises";

/**
 * Datagrams this machine's kernel dropped because a UDP socket's receive buffer was full
 * (RcvbufErrors in /proc/net/snmp), across all sockets; undefined where that file is not (not Linux).
 * The difference over a case tells loss at the receivers from loss on the way.
 */
export async function udpReceiveBufferDrops(): Promise<number | undefined> {
  const snmp = await readFile("/proc/net/snmp", "utf8").catch(() => undefined);
  const [names, values] = (snmp ?? "").split("\n").filter((line) => line.startsWith("Udp:"));
  if (names === undefined || values === undefined) return undefined;
  const column = names.split(" ").indexOf("RcvbufErrors");
  const count = Number(values.split(" ")[column]);
  return column === -1 || !Number.isFinite(count) ? undefined : count;
}
