import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalWorker } from "../tools/start/local-worker.ts";
import { freePort } from "../tools/testing/free-port.ts";
import { bodies } from "./intake.ts";
import { runLoad } from "./load.ts";
import { fixed, markdownTable } from "./markdown.ts";
import { type CpuProfile, selfTimeByFunction, selfTimeByStage, withModulePaths } from "./profile-summary.ts";

/*
 * `npm run profile`: a CPU profile of the Worker's isolate (V8's sampling profiler, through
 * workerd's inspector) while 1,000-datum requests are posted to one metric with HTTP observers,
 * as in the bench's four-observer case. Prints where the isolate's time goes, by stage of the data
 * path and by function, and writes the whole profile for Chrome DevTools.
 */

const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const observers = Number(process.env.PROFILE_OBSERVERS ?? 4);
const samplingIntervalMicros = 200;
const metric = "profile.cpu";

/** The Chrome DevTools protocol over a WebSocket: one request at a time, answered by id. */
async function inspectorSession(inspectorPort: number, workerName: string) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    title: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((candidate) => candidate.title.includes(workerName)) ?? targets[0];
  if (!target) throw new Error("workerd's inspector lists no isolate");
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => pending.set(id, (result) => resolve(result as T)));
    },
    close: () => socket.close(),
  };
}

async function main() {
  const stateDir = await mkdtemp(join(tmpdir(), "tower-edge-profile-"));
  const inspectorPort = await freePort();
  const worker = await startLocalWorker({
    port: await freePort(),
    stateDir,
    verbose: false,
    inspectorPort,
    bindings: { AUTH_DISABLED: "true", ALLOW_PRIVATE_OBSERVERS: "true" },
  });
  // Observers that take everything at once: their own cost is not what is profiled.
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    await fetch(`${worker.url}/v1/metrics/${metric}`, { method: "PUT" });
    for (let index = 0; index < observers; index++) {
      const registered = await fetch(`${worker.url}/v1/metrics/${metric}/observers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ format: "TOWER/JSON", callbackUrl: `${receiverUrl}/observer-${index}` }),
      });
      if (registered.status !== 201) throw new Error(`observer registration answered ${registered.status}`);
    }
    const requestBodies = bodies(20, 1_000, metric);
    const load = {
      url: `${worker.url}/v1/monitoringdata`,
      method: "POST" as const,
      expectedStatus: 204,
      concurrency: 32,
    };
    // Unprofiled first: compiling the path is not what is measured.
    await runLoad({ ...load, bodies: requestBodies, seconds: 2 });
    const session = await inspectorSession(inspectorPort, "tower-edge");
    await session.call("Profiler.enable");
    await session.call("Profiler.setSamplingInterval", { interval: samplingIntervalMicros });
    await session.call("Profiler.start");
    const result = await runLoad({ ...load, bodies: requestBodies, seconds });
    // The consumer's last batches run after the load: wait for them, profiled too.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { profile: sampled } = await session.call<{ profile: CpuProfile }>("Profiler.stop");
    const bundleFrame = sampled.nodes.find((node) => node.callFrame.url.endsWith("index.js"))?.callFrame;
    await session.call("Debugger.enable");
    const bundle = bundleFrame?.scriptId
      ? await session.call<{ scriptSource: string }>("Debugger.getScriptSource", { scriptId: bundleFrame.scriptId })
      : undefined;
    session.close();
    const profile = bundle && bundleFrame ? withModulePaths(sampled, bundleFrame.url, bundle.scriptSource) : sampled;
    const profilePath = join(tmpdir(), `tower-edge-${Date.now()}.cpuprofile`);
    await writeFile(profilePath, JSON.stringify(profile));

    const data = result.requests * 1_000;
    const stages = selfTimeByStage(profile);
    const busyMs = stages.filter((stage) => stage.name !== "idle").reduce((sum, stage) => sum + stage.ms, 0);
    const lines = [
      `Profile of the Worker's isolate: ${fixed(result.perSecond * 1_000)} data/s accepted for ${seconds} s ` +
        `(${data.toLocaleString("en")} data, 1,000 per request) to one metric with ${observers} HTTP observers ` +
        `(TOWER/JSON), and 3 s more for the last batches. Sampled every ${samplingIntervalMicros} µs; ` +
        `${fixed(busyMs)} ms of the isolate's time not idle, ${fixed((busyMs * 1_000) / data, 2)} µs per datum.`,
      "",
      ...markdownTable(
        ["stage", "ms", "share of busy time", "µs per datum"],
        stages.map((stage) => [
          stage.name,
          fixed(stage.ms),
          stage.name === "idle" ? "–" : `${fixed((100 * stage.ms) / busyMs, 1)} %`,
          stage.name === "idle" ? "–" : fixed((stage.ms * 1_000) / data, 3),
        ]),
      ),
      "",
      ...markdownTable(
        ["function", "where", "ms", "share of busy time"],
        selfTimeByFunction(profile, 25).map((entry) => [
          entry.functionName,
          entry.where,
          fixed(entry.ms),
          `${fixed((100 * entry.ms) / busyMs, 1)} %`,
        ]),
        2,
      ),
      "",
      `The whole profile: ${profilePath} (open it in Chrome DevTools, Performance panel).`,
    ];
    console.log(lines.join("\n"));
  } finally {
    receiver.close();
    await worker.dispose();
    await rm(stateDir, { recursive: true, force: true });
  }
}

await main();
