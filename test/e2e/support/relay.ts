import { readRelayConfig } from "../../../src/relay/config.ts";
import { type RunningRelay, startRelay } from "../../../src/relay/relay.ts";
import type { RelayDelivery, RelayResult } from "../../../src/shared/relay-contract.ts";

export const relayToken = "test-relay-token-0123456789";

export interface TestRelay {
  relay: RunningRelay;
  url: string;
  /** POSTs the deliveries with the right token; returns the status and parsed body. */
  deliver(deliveries: RelayDelivery[]): Promise<{ status: number; results: RelayResult[] }>;
  /** Any request to the relay; the body is parsed when it is JSON. */
  call(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** The relay in this process on a free loopback port; private destinations allowed unless `env` says otherwise. */
export async function startTestRelay(env: Record<string, string> = {}): Promise<TestRelay> {
  const relay = await startRelay(
    readRelayConfig({ RELAY_PORT: "0", RELAY_TOKEN: relayToken, RELAY_ALLOW_PRIVATE: "true", ...env }),
  );
  const call: TestRelay["call"] = async (path, init) => {
    const response = await fetch(`${relay.url}${path}`, init);
    const text = await response.text();
    const isJson = /json/.test(response.headers.get("content-type") ?? "");
    return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text };
  };
  return {
    relay,
    url: relay.url,
    call,
    async deliver(deliveries) {
      const { status, body } = await call("/v1/deliveries", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${relayToken}` },
        body: JSON.stringify({ deliveries }),
      });
      return { status, results: body.results };
    },
    close: () => relay.close(),
  };
}

/** The value of one counter in the relay's /metrics text. */
export async function counterValue(relay: TestRelay, name: string, protocol: "tcp" | "udp"): Promise<number> {
  const { body } = await relay.call("/metrics");
  const prefix = `${name}{protocol="${protocol}"} `;
  const line = (body as string).split("\n").find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) throw new Error(`no ${name} for ${protocol} in /metrics`);
  return Number(line.split(" ")[1]);
}
