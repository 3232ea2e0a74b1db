import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { eventually } from "../../test/e2e/support/service.ts";
import { freePort } from "../../tools/testing/free-port.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run relay` without npm: the entry point under tsx, with only the given RELAY_* variables. */
function runRelay(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("RELAY_")));
  const child = spawn(process.execPath, ["--import", "tsx", "src/relay/main.ts"], {
    cwd: projectRoot,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

it("refuses to start without RELAY_TOKEN, saying so", async () => {
  const { child, output } = runRelay({});
  const [code] = await once(child, "exit");

  expect(code).toBe(1);
  expect(output()).toContain(
    "relay: invalid relay configuration:\n  RELAY_TOKEN: is required: the bearer token the Worker sends",
  );
});

it("serves on RELAY_PORT and stops cleanly on SIGTERM", async () => {
  const port = await freePort();
  const { child, output } = runRelay({ RELAY_TOKEN: "process-test-token", RELAY_PORT: String(port) });
  try {
    await eventually(() => output().includes(`relay: listening on http://127.0.0.1:${port}`));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;

    expect(code).toBe(0);
    expect(output()).toContain("relay: SIGTERM received, finishing deliveries under way\nrelay: stopped\n");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});
