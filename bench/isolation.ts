import { createServer, type Server, type Socket } from "node:net";
import { runDeliveryCase } from "./delivery.ts";
import { probeDatum } from "./line-protocol.ts";
import { fixed, markdownTable } from "./markdown.ts";
import type { BenchSection } from "./section.ts";
import type { SystemUnderTest } from "./system-under-test.ts";

const rate = 5_000;
const dataPerRequest = 100;
const waits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 60 };
/** The target: beside a hung observer, a healthy one's p99 stays within this factor of its p99 alone. */
const targetRatio = 1.5;

/** An HTTP endpoint that accepts connections and requests and never answers. */
async function startHungReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.resume();
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Posts a datum and waits until the hung observer's first attempt ran out of the batch's budget
 * and its data went to its backlog: from then on the metric's batches hold its data instead of
 * waiting for it, the state the measurement is about. (The one batch that met it first waited
 * for the budget; that transient is not what is measured.)
 */
async function untilDeferred(serviceUrl: string, metric: string, observerId: string, system: SystemUnderTest) {
  await system.post(metric, [probeDatum(0)]);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${serviceUrl}/v1/metrics/${encodeURIComponent(metric)}/observers/${observerId}`);
    const { status } = (await response.json()) as { status: { backlog: number } };
    if (status.backlog > 0) return;
    await sleep(100);
  }
  throw new Error("the hung observer's data never went to its backlog");
}

/** The system, with a hung HTTP observer registered on every metric it is asked to observe. */
function besideHungObserver(system: SystemUnderTest, serviceUrl: string, hungUrl: string): SystemUnderTest {
  return {
    ...system,
    async observe(metric, receivers) {
      const unobserve = await system.observe(metric, receivers);
      const response = await fetch(`${serviceUrl}/v1/metrics/${encodeURIComponent(metric)}/observers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ format: "INFLUXDB", callbackUrl: hungUrl }),
      });
      if (!response.ok) throw new Error(`the hung observer was not registered: HTTP ${response.status}`);
      await untilDeferred(serviceUrl, metric, ((await response.json()) as { id: string }).id, system);
      return unobserve;
    },
  };
}

/**
 * Isolation: the latency of a healthy HTTP observer alone, then beside an observer of the same
 * metric that never answers. What the hung one does not take within a batch's budget goes to its
 * backlog, so the healthy one should not wait for it.
 */
export const isolationSection: BenchSection = async ({ settings, serviceUrl, towerEdge, progress }) => {
  const hung = await startHungReceiver();
  try {
    const run = async (system: SystemUnderTest, label: string) => {
      progress(`isolation: one HTTP observer ${label}`);
      return runDeliveryCase(
        { system, protocol: "HTTP", observers: 1, label, rate, dataPerRequest, seconds: settings.seconds },
        waits,
      );
    };
    const alone = await run(towerEdge, "alone");
    const beside = await run(besideHungObserver(towerEdge, serviceUrl, hung.url), "beside-hung");
    const row = (name: string, result: typeof alone) => [
      name,
      fixed(result.deliveredPerSecond),
      fixed(result.p50),
      fixed(result.p99),
      fixed(result.lost),
    ];
    const ratio = beside.p99 / alone.p99;
    return [
      `Isolation: one healthy HTTP observer receives ${fixed(rate)} data/s for ${settings.seconds} s (requests of ` +
        `${dataPerRequest}), alone and then beside a second observer of the same metric whose endpoint accepts ` +
        "requests and never answers. The measurement starts once the hung observer's data go to its backlog; the " +
        "one batch that first meets a newly hung observer waits for the batch's budget (DELIVERY_BUDGET_MS).",
      "",
      ...markdownTable(
        ["healthy observer", "delivered data/s", "p50 ms", "p99 ms", "lost"],
        [row("alone", alone), row("beside a hung observer", beside)],
      ),
      "",
      `Healthy observer's p99 beside the hung one ÷ alone: **${fixed(ratio, 2)}** (target ≤ ${targetRatio}).`,
    ];
  } finally {
    await hung.close();
  }
};
