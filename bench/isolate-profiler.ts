import { fetch } from "miniflare";
import { type CpuProfile, withModulePaths } from "./profile-summary.ts";

/*
 * V8's sampling profiler in the Worker's isolate, through workerd's inspector (the Chrome DevTools
 * protocol over a WebSocket). The WebSocket is Miniflare's: Node 20 has none without a flag.
 */

/** How often V8 samples the isolate's stack. */
export const samplingIntervalMicros = 200;

/** The protocol over one WebSocket: requests answered by id. */
interface InspectorSession {
  call<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

async function inspectorSession(inspectorPort: number): Promise<InspectorSession> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  // workerd lists one target per isolate: the Worker's, which also runs its Durable Objects.
  const [target] = targets;
  if (!target) throw new Error("workerd's inspector lists no isolate");
  const { webSocket: socket } = await fetch(target.webSocketDebuggerUrl.replace(/^ws/, "http"), {
    headers: { upgrade: "websocket" },
  });
  if (!socket) throw new Error("workerd's inspector refused the WebSocket");
  socket.accept();
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting || message.id === undefined) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`inspector: ${message.error.message}`));
    else waiting.resolve(message.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) =>
        pending.set(id, { resolve: (result) => resolve(result as T), reject }),
      );
    },
    close: () => socket.close(),
  };
}

export interface IsolateProfiler {
  /** Profiles the isolate while `work` runs: its result, and the profile with frames named by module. */
  profile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }>;
  close(): void;
}

/** Connects to the isolate of the Worker whose workerd listens for the inspector on `inspectorPort`. */
export async function connectIsolateProfiler(inspectorPort: number): Promise<IsolateProfiler> {
  const session = await inspectorSession(inspectorPort);
  await session.call("Profiler.enable");
  await session.call("Profiler.setSamplingInterval", { interval: samplingIntervalMicros });
  /** The bundle's source, read once: its module markers name the frames. */
  let bundle: { url: string; source: string } | undefined;
  const readBundle = async (profile: CpuProfile) => {
    // The bundle's entry module, as tools/start/worker-bundle.ts names it.
    const frame = profile.nodes.find((node) => node.callFrame.url.endsWith("index.js"))?.callFrame;
    if (!frame?.scriptId) return undefined;
    // The debugger only while the source is read: enabled, it would weigh on the next profiles.
    await session.call("Debugger.enable");
    const { scriptSource } = await session.call<{ scriptSource: string }>("Debugger.getScriptSource", {
      scriptId: frame.scriptId,
    });
    await session.call("Debugger.disable");
    return { url: frame.url, source: scriptSource };
  };
  return {
    async profile(work) {
      await session.call("Profiler.start");
      const result = await work();
      const { profile } = await session.call<{ profile: CpuProfile }>("Profiler.stop");
      bundle ??= await readBundle(profile);
      if (!bundle) throw new Error("no frame of the Worker's bundle in the profile");
      return { result, profile: withModulePaths(profile, bundle.url, bundle.source) };
    },
    close: () => session.close(),
  };
}
