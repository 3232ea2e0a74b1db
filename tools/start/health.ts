import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

const answers = (url: string) =>
  fetch(`${url}/healthz`).then(
    (response) => response.ok,
    () => false,
  );

/**
 * Resolves once `url`/healthz answers 2xx while `child` still runs; rejects when `child` exits
 * first, or after `timeoutMs`. The caller makes sure that nothing else listened on that port
 * before it started `child`.
 */
export async function waitUntilHealthy(url: string, child: ChildProcess, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let healthy = false;
  for (;;) {
    // Checked after each answer as well: an answer is only this child's while it runs.
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it answered ${url}/healthz`);
    }
    if (healthy) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url}/healthz within ${timeoutMs} ms`);
    await sleep(100);
    healthy = await answers(url);
  }
}
