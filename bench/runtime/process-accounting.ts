import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/*
 * The kernel's own accounting of the processes under test (Linux /proc): CPU time (utime + stime,
 * every thread of the process, in clock ticks). CPU time, unlike wall
 * time, does not count waiting, and a process's figure does not include its neighbours' work on the
 * same cores. Without /proc (not Linux) nothing is found and every figure is NaN, which the report
 * prints as "–".
 */

/** The fields of /proc/<pid>/stat the bench reads. */
export interface ProcessStat {
  pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters). */
  comm: string;
  ppid: number;
  /** CPU time in user and kernel mode, every thread together, in clock ticks. */
  utime: number;
  stime: number;
}

/**
 * Reads one /proc/<pid>/stat line. The name, in parentheses, may hold spaces and parentheses, so
 * the fields after it are counted from its last ")"; field n (1-based, proc(5)) is fields[n - 3].
 */
export function parseStat(text: string): ProcessStat {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open === -1 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(text)}`);
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number) => Number(fields[n - 3]);
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: field(4),
    utime: field(14),
    stime: field(15),
  };
}

let ticksPerSecond: number | undefined;

/** Clock ticks per second of the CPU times in /proc (`getconf CLK_TCK`, 100 almost everywhere). */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    let ticks = Number.NaN;
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    } catch {
      // no getconf: the Linux default below
    }
    ticksPerSecond = Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  }
  return ticksPerSecond;
}

const readProc = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
};

/** The process's stat, or undefined once it is gone. */
export function readStat(pid: number): ProcessStat | undefined {
  const text = readProc(pid, "stat");
  return text === undefined ? undefined : parseStat(text);
}

/** Every process /proc shows now; empty where there is no /proc. */
export function processTable(): ProcessStat[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries.filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => readStat(Number(entry)) ?? []);
}

/** The processes of `table` whose chain of parents leads to `root` (not `root` itself). */
export function descendantsOf(root: number, table: readonly ProcessStat[]): ProcessStat[] {
  const children = new Map<number, ProcessStat[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: ProcessStat[] = [];
  const pending = [root];
  for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      pending.push(child.pid);
    }
  }
  return found;
}

/** A process as the bench names it: its id, kernel name and command line (arguments joined by spaces). */
export interface NamedProcess {
  pid: number;
  comm: string;
  cmdline: string;
}

/** The descendants of `root` (see descendantsOf) that `matches` picks, by pid. */
export function findDescendants(root: number, matches: (process: NamedProcess) => boolean): NamedProcess[] {
  return descendantsOf(root, processTable())
    .map(({ pid, comm }) => ({ pid, comm, cmdline: (readProc(pid, "cmdline") ?? "").split("\0").join(" ").trim() }))
    .filter(matches)
    .sort((a, b) => a.pid - b.pid);
}

/** CPU time so far of each living process of `pids`, in clock ticks: all of it, or only the kernel's. */
function cpuTicks(pids: readonly number[], kernelOnly: boolean): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat !== undefined) ticks.set(pid, kernelOnly ? stat.stime : stat.utime + stat.stime);
  }
  return ticks;
}

/**
 * Some processes of the system under test (e.g. the Worker runtime's), found once by pid: the CPU
 * time they use over a stretch of the run.
 */
export class ProcessGroup {
  constructor(
    /** Shown in reports, e.g. "workerd". */
    readonly name: string,
    readonly processes: readonly NamedProcess[],
  ) {}

  get pids(): number[] {
    return this.processes.map((process) => process.pid);
  }

  /**
   * Starts counting; the function returned gives the CPU seconds the group used since then (NaN
   * for an empty group), or only those spent in the kernel (system time: system calls, disk writes). A process that ended meanwhile counts for nothing: its last ticks are lost.
   */
  cpuSince(kernelOnly = false): () => number {
    const before = cpuTicks(this.pids, kernelOnly);
    return () => {
      if (this.processes.length === 0) return Number.NaN;
      let ticks = 0;
      for (const [pid, now] of cpuTicks(this.pids, kernelOnly)) ticks += now - (before.get(pid) ?? 0);
      return ticks / clockTicksPerSecond();
    };
  }

  /** "workerd (pid 123)", "workerd (pids 123, 456)", or "workerd (not found)". */
  describe(): string {
    const pids = this.pids;
    if (pids.length === 0) return `${this.name} (not found)`;
    return `${this.name} (pid${pids.length > 1 ? "s" : ""} ${pids.join(", ")})`;
  }
}

/** Starts counting the CPU time of every group; the function returned gives each group's CPU seconds since then. */
export function cpuMeter<K extends string>(groups: Record<K, ProcessGroup>): () => Record<K, number> {
  const entries = (Object.entries(groups) as [K, ProcessGroup][]).map(
    ([key, group]) => [key, group.cpuSince()] as const,
  );
  return () => Object.fromEntries(entries.map(([key, elapsed]) => [key, elapsed()])) as Record<K, number>;
}

/** The processes of a run: the Worker runtime (workerd), the relay, and the bench's own. */
export type ProcessRole = "worker" | "relay" | "bench";
export type BenchProcesses = Record<ProcessRole, ProcessGroup>;
