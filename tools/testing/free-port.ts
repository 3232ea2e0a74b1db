import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/*
 * Ports are taken below the kernel's ephemeral range: a port of that range that is free now may be
 * given a moment later to another process's listen on port 0 (every workerd listens so) or to the
 * source of an outgoing connection, and a service started on it then fails with EADDRINUSE, or a
 * test that checks it is closed again finds it in use.
 */

const lowestPort = 10_000;

/** The first port of the ephemeral range (Linux); the IANA one's where the kernel does not say. */
function lowestEphemeralPort(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > lowestPort + 1_000 ? port : 49_152;
  } catch {
    return 49_152;
  }
}

const ephemeralFrom = lowestEphemeralPort();

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1, below the ephemeral range, that nothing listens on right now. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = lowestPort + Math.floor(Math.random() * (ephemeralFrom - lowestPort));
    if (await canListen(port)) return port;
  }
}
