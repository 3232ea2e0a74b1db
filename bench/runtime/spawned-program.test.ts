import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { spawnProgram } from "./spawned-program.ts";

const sleeper = ["-e", "setInterval(() => {}, 1000)"];

describe("a spawned program", () => {
  it("is handed over once ready, and stops", async () => {
    let polls = 0;
    const program = await spawnProgram(process.execPath, sleeper, process.env, async () => ++polls >= 2, 10_000);
    expect(existsSync(`/proc/${program.pid}`)).toBe(true);
    await program.stop();
    expect(program.child.signalCode).toBe("SIGTERM");
  });

  it("fails when it exits before it is ready", async () => {
    const exiting = spawnProgram(process.execPath, ["-e", "process.exit(3)"], process.env, async () => false, 10_000);
    await expect(exiting).rejects.toThrow(/exited \(3\) before it was ready/);
  });

  it("is stopped when it is not ready in time", async () => {
    const slow = spawnProgram(process.execPath, sleeper, process.env, async () => false, 300);
    await expect(slow).rejects.toThrow(/not ready within 300 ms/);
  });
});
