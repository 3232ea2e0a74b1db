import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The command line, arguments separated by spaces. */
  command: string;
}

/** One process as /proc shows it; undefined once it is gone or a zombie (dead, not yet reaped). */
function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which may itself hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state === "Z") return undefined;
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return { pid, ppid: Number(ppid), command };
  } catch {
    return undefined;
  }
}

/** Every running descendant of `pid`: its children, theirs, and so on. */
export function descendants(pid: number): ProcessInfo[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readProcess(Number(name)) ?? []);
  const found: ProcessInfo[] = [];
  for (let parents = new Set([pid]); parents.size > 0; ) {
    const children = all.filter((process) => parents.has(process.ppid));
    found.push(...children);
    parents = new Set(children.map((child) => child.pid));
  }
  return found;
}

export const isRunning = (pid: number) => readProcess(pid) !== undefined;
