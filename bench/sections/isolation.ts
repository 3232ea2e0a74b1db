import { createServer } from "node:http";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { probeDatum } from "../load/line-protocol.ts";
import { runDeliveryCase } from "../load/rounds/delivery-case.ts";
import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import type { BenchSection } from "./section.ts";

const rate = 5_000;
const dataPerRequest = 100;
const waits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 60 };
/** The target: beside a hung observer, a healthy one's p99 stays within this factor of its p99 alone. */
const targetRatio = 1.5;

/** An HTTP endpoint that answers every request with a 204 until `hang`, and from then on never answers. */
async function startTurningReceiver(): Promise<{ url: string; hang(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let hung = false;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (!hung) response.writeHead(204).end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port assigned");
  return {
    url: `http://127.0.0.1:${address.port}/`,
    hang: () => {
      hung = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An HTTP endpoint that accepts connections and requests and never answers. */
async function startHungReceiver() {
  const receiver = await startTurningReceiver();
  receiver.hang();
  return receiver;
}

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

/** Registers an INFLUXDB observer at `url` on `metric`; resolves with its id. */
async function registerObserver(serviceUrl: string, metric: string, url: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/v1/metrics/${encodeURIComponent(metric)}/observers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ format: "INFLUXDB", callbackUrl: url }),
  });
  if (!response.ok) throw new Error(`the observer at ${url} was not registered: HTTP ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/** The system, with a hung HTTP observer registered on every metric it is asked to observe. */
function besideHungObserver(system: SystemUnderTest, serviceUrl: string, hungUrl: string): SystemUnderTest {
  return {
    ...system,
    async observe(metric, receivers) {
      const unobserve = await system.observe(metric, receivers);
      await untilDeferred(serviceUrl, metric, await registerObserver(serviceUrl, metric, hungUrl), system);
      return unobserve;
    },
  };
}

/**
 * The system, with an HTTP observer that answers (the case's probe, before posting) registered on
 * every metric it is asked to observe: the case hangs it as posting begins.
 */
function besideAnsweringObserver(system: SystemUnderTest, serviceUrl: string, url: string): SystemUnderTest {
  return {
    ...system,
    async observe(metric, receivers) {
      const unobserve = await system.observe(metric, receivers);
      await registerObserver(serviceUrl, metric, url);
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
  const [hung, turning] = await Promise.all([startHungReceiver(), startTurningReceiver()]);
  try {
    const run = async (system: SystemUnderTest, label: string, onPostingStarted?: () => void) => {
      progress(`isolation: one HTTP observer ${label}`);
      return runDeliveryCase(
        {
          system,
          protocol: "HTTP",
          observers: 1,
          label,
          rate,
          dataPerRequest,
          seconds: settings.seconds,
          ...(onPostingStarted ? { onPostingStarted } : {}),
        },
        waits,
      );
    };
    const alone = await run(towerEdge, "alone");
    const beside = await run(besideHungObserver(towerEdge, serviceUrl, hung.url), "beside-hung");
    const newlyHung = await run(besideAnsweringObserver(towerEdge, serviceUrl, turning.url), "newly-hung", () =>
      turning.hang(),
    );
    const row = (name: string, result: typeof alone) => [
      name,
      fixed(result.deliveredPerSecond),
      fixed(result.p50),
      fixed(result.p99),
      fixed(result.lost),
      fixed(result.duplicates),
    ];
    const ratio = beside.p99 / alone.p99;
    return [
      `Isolation: one healthy HTTP observer receives ${fixed(rate)} data/s for ${settings.seconds} s (requests of ` +
        `${dataPerRequest}), alone; then beside a second observer of the same metric whose endpoint accepts ` +
        "requests and never answers, measured once that observer's data go to its backlog; then beside one that " +
        "answered until posting began and from then on never answers, so that the first batches meet it newly hung " +
        "(a batch waits for such an observer a small part of DELIVERY_BUDGET_MS).",
      "",
      ...markdownTable(
        ["healthy observer", "delivered data/s", "p50 ms", "p99 ms", "lost", "duplicates"],
        [
          row("alone", alone),
          row("beside a hung observer", beside),
          row("beside an observer that begins to hang", newlyHung),
        ],
      ),
      "",
      `Healthy observer's p99 beside the hung one ÷ alone: **${fixed(ratio, 2)}** (target ≤ ${targetRatio}); ` +
        `beside the newly hung one ÷ alone: **${fixed(newlyHung.p99 / alone.p99, 2)}**.`,
    ];
  } finally {
    await Promise.all([hung.close(), turning.close()]);
  }
};
