import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

/** wrangler dev's line saying where it listens; colour codes, when forced, do not split the address. */
const readyLine = /Ready on .*?(http:\/\/[\d.]+:\d+)/;

/** Enough of the output to show why wrangler dev stopped. */
const keptLines = 30;

export interface WatchedOutput {
  /** The address wrangler dev says it is ready on; rejects if it exits first, or after `timeoutMs`. */
  ready: Promise<string>;
  /** Its latest lines, stdout and stderr interleaved. */
  tail(): string;
}

/**
 * Reads wrangler dev's piped stdout and stderr: passes each on to its destination (nowhere when it
 * has none; it is read all the same, or wrangler would block once a pipe is full), keeps the latest
 * lines, and finds the address it says it listens on, which is the only way to learn a port it chose.
 */
export function watchWranglerOutput(
  child: ChildProcess,
  destination: { stdout?: Writable; stderr?: Writable },
  timeoutMs: number,
): WatchedOutput {
  const lines: string[] = [];
  const tail = () => lines.join("\n");
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`wrangler dev did not say where it listens within ${timeoutMs} ms:\n${tail()}`)),
      timeoutMs,
    );
    const read = (stream: Readable | null, passedTo: Writable | undefined) => {
      if (stream === null) return;
      if (passedTo) stream.pipe(passedTo, { end: false });
      createInterface({ input: stream }).on("line", (line) => {
        lines.push(line);
        if (lines.length > keptLines) lines.shift();
        const address = readyLine.exec(line)?.[1];
        if (address === undefined) return;
        clearTimeout(timer);
        resolve(address);
      });
    };
    read(child.stdout, destination.stdout);
    read(child.stderr, destination.stderr);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited (${code ?? signal}) before it was ready:\n${tail()}`));
    });
  });
  return { ready, tail };
}
