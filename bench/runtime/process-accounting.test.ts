import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import {
  clockTicksPerSecond,
  cpuMeter,
  descendantsOf,
  findDescendants,
  ProcessGroup,
  type ProcessStat,
  parseStat,
} from "./process-accounting.ts";

describe("/proc parsing", () => {
  it("reads pid, name, parent and CPU ticks from a stat line, whatever the name holds", () => {
    const line =
      "4242 (my (odd) proc) S 17 4242 4242 0 -1 4194560 1520 0 0 0 250 31 0 0 20 0 12 0 9000 1000000 2000 " +
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
    expect(parseStat(line)).toEqual({ pid: 4242, comm: "my (odd) proc", ppid: 17, utime: 250, stime: 31 });
  });

  it("refuses what is not a stat line", () => {
    expect(() => parseStat("no parentheses here")).toThrow(/not a \/proc/);
  });
});

describe("descendantsOf", () => {
  const entry = (pid: number, ppid: number): ProcessStat => ({ pid, ppid, comm: `p${pid}`, utime: 0, stime: 0 });

  it("follows the chain of parents down from the root, and nothing beside it", () => {
    const table = [entry(1, 0), entry(10, 1), entry(11, 10), entry(12, 11), entry(13, 10), entry(20, 1), entry(21, 20)];
    expect(
      descendantsOf(10, table)
        .map((process) => process.pid)
        .sort(),
    ).toEqual([11, 12, 13]);
    expect(descendantsOf(12, table)).toEqual([]);
  });
});

describe.runIf(process.platform === "linux")("accounting of live processes", () => {
  const children: ChildProcess[] = [];
  const start = (command: string, args: string[]) => {
    const child = spawn(command, args, { stdio: "ignore" });
    children.push(child);
    return child;
  };
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    }
  });

  it("finds children and grandchildren by name and command line", async () => {
    const shell = start("sh", ["-c", "sleep 37 & wait"]);
    let found: ReturnType<typeof findDescendants> = [];
    for (let attempt = 0; attempt < 50 && found.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      found = findDescendants(process.pid, (candidate) => candidate.comm === "sleep");
    }
    expect(found).toHaveLength(1);
    expect(found[0]!.cmdline).toBe("sleep 37");
    expect(found[0]!.pid).not.toBe(shell.pid);
    expect(findDescendants(process.pid, (candidate) => candidate.pid === shell.pid)).toHaveLength(1);
    // The grandchild outlives a killed shell: it goes first.
    process.kill(found[0]!.pid, "SIGKILL");
  });

  it("counts the CPU time a process spends, not the time it waits", async () => {
    // Spins until it has used 500 ms of CPU by its own count, says so, then sleeps.
    const spin =
      "while (process.cpuUsage().user + process.cpuUsage().system < 500_000); " +
      'process.stdout.write("spun"); setTimeout(() => {}, 60_000);';
    const busy = spawn(process.execPath, ["-e", spin], { stdio: ["ignore", "pipe", "ignore"] });
    children.push(busy);
    await once(busy, "spawn");
    const group = new ProcessGroup("busy", [{ pid: busy.pid!, comm: "node", cmdline: "" }]);
    const elapsed = group.cpuSince();
    const meter = cpuMeter({ busy: group });
    await once(busy.stdout!, "data");
    const spent = elapsed();
    // The spin, less what the start-up used before the first reading; the ticks' rounding either way.
    const tick = 1 / clockTicksPerSecond();
    expect(spent).toBeGreaterThanOrEqual(0.4);
    expect(spent).toBeLessThanOrEqual(0.5 + 2 * tick);
    expect(Math.abs(meter().busy - spent)).toBeLessThanOrEqual(2 * tick);

    // Asleep, it uses (next to) nothing.
    const asleep = group.cpuSince();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(asleep()).toBeLessThanOrEqual(2 * tick);

    expect(group.describe()).toBe(`busy (pid ${busy.pid})`);
  });

  it("counts the kernel's part apart when asked: system calls, not the process's own code", async () => {
    // Writes to /dev/null until the kernel has spent 300 ms on it by the process's own count.
    const writes =
      'const fs = require("node:fs"); const fd = fs.openSync("/dev/null", "w"); const bytes = Buffer.alloc(4096);' +
      "while (process.cpuUsage().system < 300_000) fs.writeSync(fd, bytes); " +
      'process.stdout.write("written"); setTimeout(() => {}, 60_000);';
    const writer = spawn(process.execPath, ["-e", writes], { stdio: ["ignore", "pipe", "ignore"] });
    children.push(writer);
    await once(writer, "spawn");
    const group = new ProcessGroup("writer", [{ pid: writer.pid!, comm: "node", cmdline: "" }]);
    const all = group.cpuSince();
    const kernel = group.cpuSince(true);
    await once(writer.stdout!, "data");
    const [kernelSpent, spent] = [kernel(), all()];
    expect(kernelSpent).toBeGreaterThanOrEqual(0.2);
    expect(kernelSpent).toBeLessThanOrEqual(spent);
  });

  it("reports NaN for a group without processes, and counts nothing for one that is gone", async () => {
    const none = new ProcessGroup("none", []);
    expect(none.cpuSince()()).toBeNaN();
    expect(none.describe()).toBe("none (not found)");

    const short = start("sleep", ["30"]);
    await once(short, "spawn");
    const group = new ProcessGroup("short", [{ pid: short.pid!, comm: "sleep", cmdline: "" }]);
    const elapsed = group.cpuSince();
    short.kill("SIGKILL");
    await once(short, "exit");
    expect(elapsed()).toBe(0);
  });
});
