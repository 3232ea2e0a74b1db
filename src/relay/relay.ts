import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { RelayConfig } from "./config.ts";
import { RelayCounters } from "./counters.ts";
import { DestinationPolicy } from "./destination-policy.ts";
import { DeliveryDispatcher } from "./dispatcher.ts";
import { RelayHttpApi } from "./server.ts";
import { TcpPool } from "./tcp-pool.ts";
import { UdpSender } from "./udp-sender.ts";

export interface RunningRelay {
  /** Base URL, e.g. http://127.0.0.1:8788 (the Worker's RELAY_URL). */
  url: string;
  port: number;
  /**
   * Graceful shutdown: stops accepting, lets deliveries under way finish for up to
   * `shutdownTimeoutMs`, reports the rest failed (so the Worker retries them), then closes every
   * socket. Safe to call more than once.
   */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts the relay in this process and resolves once it listens. */
export async function startRelay(config: RelayConfig): Promise<RunningRelay> {
  const policy = new DestinationPolicy({ allow: config.allow, deny: config.deny, allowPrivate: config.allowPrivate });
  const counters = new RelayCounters();
  const tcp = new TcpPool(policy, {
    connectTimeoutMs: config.connectTimeoutMs,
    writeTimeoutMs: config.writeTimeoutMs,
    maxQueuedBytes: config.maxQueuedBytesPerDestination,
    idleTimeoutMs: config.idleTimeoutMs,
  });
  const udp = new UdpSender();
  const dispatcher = new DeliveryDispatcher({ tcp, udp, policy, counters, maxDatagramBytes: config.maxDatagramBytes });
  const api = new RelayHttpApi({ token: config.token, maxBodyBytes: config.maxBodyBytes, dispatcher, counters });
  // A node:http server: serve makes no other kind unless given another createServer.
  const server = serve({ fetch: api.app.fetch, port: config.port, hostname: config.host }) as Server;
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  const shutdown = async () => {
    api.stopAccepting();
    const serverClosed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    if (!(await api.settled(config.shutdownTimeoutMs))) {
      dispatcher.abort(new Error("the relay shut down before this delivery completed"));
      await api.settled(config.shutdownTimeoutMs);
    }
    tcp.close(new Error("the relay is shutting down"));
    await udp.close();
    server.closeAllConnections();
    await serverClosed;
  };
  let closing: Promise<void> | undefined;
  return { url: `http://${urlHost(config.host)}:${port}`, port, close: () => (closing ??= shutdown()) };
}
