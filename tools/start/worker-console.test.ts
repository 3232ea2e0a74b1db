import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { LogLevel } from "miniflare";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { DeliveryAttemptLine } from "../../src/shared/delivery-attempt-line.ts";
import { readSettings } from "../../src/shared/settings.ts";
import { logLevelSetting, shownLine, workerConsole } from "./worker-console.ts";

const attempt = (fields: Partial<DeliveryAttemptLine>) =>
  JSON.stringify({
    event: "delivery.attempt",
    metric: "cpu",
    protocol: "HTTP",
    format: "TOWER/JSON",
    observerId: "o1",
    ok: true,
    data: 3,
    attempt: 1,
    ...fields,
  });

describe("LOG_LEVEL", () => {
  const schema = z.object({ LOG_LEVEL: logLevelSetting });

  it.each([
    [undefined, "info"],
    ["", "info"],
    ["DEBUG", "debug"],
  ])("reads %o as %s", (value, level) => {
    expect(readSettings(schema, { LOG_LEVEL: value }, "launcher").LOG_LEVEL).toBe(level);
  });

  it("refuses anything else, saying what it takes", () => {
    expect(() => readSettings(schema, { LOG_LEVEL: "verbose" }, "launcher")).toThrow(
      'LOG_LEVEL: expected "info" or "debug"',
    );
  });
});

describe("shownLine at info", () => {
  it("hides successful and deferred attempts", () => {
    expect(shownLine(attempt({ ok: true }), "info")).toBeUndefined();
    expect(shownLine(attempt({ ok: false, deferred: true, error: "continued from the backlog" }), "info")).toBe(
      undefined,
    );
  });

  it("tells of a failed attempt in one readable line", () => {
    const line = attempt({ ok: false, attempt: 2, error: "network error: connection refused" });
    expect(shownLine(line, "info")).toBe(
      'delivery to observer o1 of "cpu" failed (HTTP, attempt 2, 3 data): network error: connection refused',
    );
  });

  it("gives the HTTP status when the attempt names no error", () => {
    expect(shownLine(attempt({ ok: false, httpStatus: 500 }), "info")).toMatch(/: HTTP 500$/);
  });

  it("tells of an observer removed on 410 Gone", () => {
    expect(shownLine(attempt({ ok: false, gone: true, httpStatus: 410 }), "info")).toBe(
      'observer o1 of "cpu" answered 410 Gone and is removed',
    );
  });

  it("passes every other line on as it is", () => {
    expect(shownLine('observers of "cpu" not read: boom', "info")).toBe('observers of "cpu" not read: boom');
  });
});

it("shows every line as it is at debug", () => {
  const line = attempt({ ok: true });
  expect(shownLine(line, "debug")).toBe(line);
});

describe("workerConsole", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps Miniflare's info lines for debug", () => {
    expect(workerConsole("debug").log.level).toBe(LogLevel.INFO);
    expect(workerConsole("info").log.level).toBe(LogLevel.WARN);
  });

  it("writes the shown lines of workerd's stdout and stderr to the console", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];

    workerConsole("info").handleRuntimeStdio(stdout, stderr);
    stdout.end(`${attempt({ ok: true })}\nhello\n`);
    stderr.end("trouble\n");
    await sleep(10);

    expect(logged.mock.calls).toEqual([["hello"]]);
    expect(errors.mock.calls).toEqual([["trouble"]]);
  });
});
