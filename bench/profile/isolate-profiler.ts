import { inspectorSession, inspectorTargets } from "../runtime/inspector-session.ts";
import { type CpuProfile, withModulePaths } from "./summary.ts";

/* V8's sampling profiler in the Worker's isolate, through workerd's inspector. */

/** How often V8 samples the isolate's stack. */
export const samplingIntervalMicros = 200;

export interface IsolateProfiler {
  /** Profiles the isolate while `work` runs: its result, and the profile with frames named by module. */
  profile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }>;
  close(): void;
}

/** Connects to the isolate of the Worker whose workerd listens for the inspector on `inspectorPort`. */
export async function connectIsolateProfiler(inspectorPort: number): Promise<IsolateProfiler> {
  // workerd lists the Worker's isolate, which also runs its Durable Objects, first.
  const [target] = await inspectorTargets(inspectorPort);
  if (!target) throw new Error("workerd's inspector lists no isolate");
  const session = await inspectorSession(target);
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
