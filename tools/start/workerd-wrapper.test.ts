import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { expect, it } from "vitest";
import { descendants } from "./testing/process-tree.ts";
import { workerdV8Flags, wrapWorkerd } from "./workerd-wrapper.ts";

/** The session a process belongs to (/proc/<pid>/stat's sixth field). */
function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
}

it("runs workerd with the V8 flags, as a child of this process in a session of its own", async () => {
  wrapWorkerd();
  expect(process.env.MINIFLARE_WORKERD_V8_FLAGS).toBe(workerdV8Flags.join(" "));
  expect(workerdV8Flags).toContain("--expose-gc");
  const miniflare = new Miniflare({ modules: true, script: "export default { fetch: () => new Response(typeof gc) }" });
  try {
    expect(await (await miniflare.dispatchFetch("http://worker/")).text()).toBe("function");
    const workerd = descendants(process.pid).find((child) => / serve --binary /.test(child.command));
    expect(workerd, "workerd among this process's children").toBeDefined();
    // Started through workerd-bound.sh, whose programs each replace the one before.
    expect(workerd!.ppid).toBe(process.pid);
    expect(workerd!.command).toMatch(/\/workerd serve /);
    expect(sessionOf(workerd!.pid)).toBe(workerd!.pid);
    expect(sessionOf(workerd!.pid)).not.toBe(sessionOf(process.pid));
  } finally {
    await miniflare.dispose();
  }
});
