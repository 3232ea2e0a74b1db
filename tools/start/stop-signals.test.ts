import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runSnippet } from "./testing/snippet-process.ts";

const stopSignals = fileURLToPath(new URL("stop-signals.ts", import.meta.url));

/** A process that stops on its stop signals with a stop taking `stopMs` and failing if `fails`. */
function stoppable({ stopMs = 200, fails = false } = {}, options: { parentBetween?: boolean } = {}) {
  return runSnippet(
    `import { onStopSignal } from ${JSON.stringify(stopSignals)};
    onStopSignal(async () => {
      console.log("stop begins");
      await new Promise((resolve) => setTimeout(resolve, ${stopMs}));
      if (${fails}) throw new Error("could not stop");
      console.log("stop ends");
    });
    console.log("ready");
    setInterval(() => undefined, 1_000);`,
    options,
  );
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("onStopSignal", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("on %s stops, then exits 0", async (signal) => {
    const run = stoppable();
    await run.waitFor("ready");
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain(`launcher: ${signal} received, stopping`);
    expect(run.output()).toContain("stop ends");
  });

  it("takes a signal soon after the first for the same request, and stops once", async () => {
    const run = stoppable({ stopMs: 500 });
    await run.waitFor("ready");
    run.child.kill("SIGINT");
    await run.waitFor("stop begins");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(count(run.output(), "stop begins")).toBe(1);
    expect(run.output()).toContain("stop ends");
  });

  it("exits at once, with 1, on a signal that comes later while stopping", async () => {
    const run = stoppable({ stopMs: 10_000 });
    await run.waitFor("ready");
    run.child.kill("SIGTERM");
    await run.waitFor("stop begins");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("launcher: SIGTERM received again, stopping at once");
    expect(run.output()).not.toContain("stop ends");
  });

  it("exits 1 when stopping fails", async () => {
    const run = stoppable({ fails: true });
    await run.waitFor("ready");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("launcher: stopping failed");
  });

  it("stops once its parent has died", async () => {
    const orphan = stoppable({}, { parentBetween: true });
    await orphan.waitFor("ready");
    orphan.child.kill("SIGKILL");
    await orphan.waitFor("stop ends", 10_000);
    expect(orphan.output()).toContain("launcher: its parent process died, stopping");
  });
});
