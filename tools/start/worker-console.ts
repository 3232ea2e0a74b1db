import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Log, LogLevel } from "miniflare";
import type { z } from "zod";
import { type DeliveryAttemptLine, readDeliveryAttemptLine } from "../../src/shared/delivery-attempt-line.ts";
import { choiceSetting } from "../../src/shared/settings.ts";

/**
 * LOG_LEVEL: how much of the Worker's console `npm start` shows. "info" shows what an operator
 * acts on: the Worker's errors, and one readable line per failed delivery attempt and per observer
 * removed on 410 Gone. "debug" shows everything, as `npm run dev` does: the Worker's JSON line for
 * every delivery attempt and Miniflare's own log (a line per queue batch).
 */
export const logLevelSetting = choiceSetting(["info", "debug"], "info");

export type ConsoleLevel = z.output<typeof logLevelSetting>;

/** What the console shows of one line of the Worker's output at `level`; undefined hides it. */
export function shownLine(line: string, level: ConsoleLevel): string | undefined {
  if (level === "debug") return line;
  const attempt = readDeliveryAttemptLine(line);
  if (attempt === undefined) return line;
  const observer = `observer ${attempt.observerId} of ${JSON.stringify(attempt.metric)}`;
  if (attempt.gone) return `${observer} answered 410 Gone and is removed`;
  if (attempt.ok || attempt.deferred) return undefined;
  return `delivery to ${observer} failed (${attempt.protocol}, attempt ${attempt.attempt}, ${attempt.data} data): ${reason(attempt)}`;
}

const reason = ({ error, httpStatus }: DeliveryAttemptLine) =>
  error ?? (httpStatus === undefined ? "no reason given" : `HTTP ${httpStatus}`);

/** Miniflare's `log` and `handleRuntimeStdio` options for a Worker whose console shows `level`. */
export function workerConsole(level: ConsoleLevel) {
  const show = (stream: Readable, write: (line: string) => void) =>
    createInterface({ input: stream }).on("line", (line) => {
      const shown = shownLine(line, level);
      if (shown !== undefined) write(shown);
    });
  return {
    // Miniflare's info lines are a queue batch each and the address of its own entry socket, which no client uses.
    log: new Log(level === "debug" ? LogLevel.INFO : LogLevel.WARN),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      show(stdout, console.log);
      show(stderr, console.error);
    },
  };
}
