import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Runs `npm run receive`'s script with `args`; stops it once it printed `until`; resolves once it exited. */
function receive(args: string[], until?: RegExp): Promise<{ output: string; code: number | null }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tools/receive/receive.ts", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.test(output)) child.kill();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => resolve({ output, code }));
  });
}

describe("npm run receive", () => {
  it("listens until stopped, saying where", async () => {
    const { output } = await receive(["--http", "0"], /Ctrl-C stops it/);
    expect(output).toMatch(/^receiving HTTP on http:\/\/127\.0\.0\.1:\d+\/\nCtrl-C stops it\.\n$/);
  });

  it("exits 2 with its usage on a command line it does not take", async () => {
    const { output, code } = await receive(["--tcp"]);
    expect(code).toBe(2);
    expect(output).toMatch(/usage: npm run receive -- \[--http PORT\]/);
  });
});
