import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/problems";
import { instanceId } from "../ops/instance-id";
import type { AppEnv } from "./app-env";
import { checkVia, loopsRefused, upstreamVia } from "./loop-check";

/**
 * A route that runs the check and answers 200 with the request's upstream ids when it passes, or
 * the refusal's status and message.
 */
const route = new Hono<AppEnv>()
  .post("/", async (c) => {
    await checkVia(c, "/write");
    return c.json(upstreamVia(c));
  })
  .onError((error) => {
    if (!(error instanceof ApiError)) throw error;
    return Response.json({ code: error.code, message: error.message }, { status: error.status });
  });

const post = (via?: string) =>
  route.request("/", { method: "POST", headers: via === undefined ? {} : { "tower-edge-via": via } }, env);

describe("checkVia and upstreamVia", () => {
  it("pass a request without tower-edge-via, which came through no other service", async () => {
    const response = await post();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("pass a request whose tower-edge-via names other services only, and read them in order", async () => {
    const instance = await instanceId(env);
    for (const [via, upstream] of [
      ["edge-1", ["edge-1"]],
      ["edge-1, edge-2", ["edge-1", "edge-2"]],
      [`${instance}0`, [`${instance}0`]],
      [`x${instance}`, [`x${instance}`]],
      ["", []],
      [" ,edge-1,, edge-1 ,edge-0\t", ["edge-1", "edge-0"]],
    ] as const) {
      const response = await post(via);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(upstream);
    }
  });

  it("refuse (508) a request whose tower-edge-via names this service, and count it for its route", async () => {
    const instance = await instanceId(env);
    const before = loopsRefused["/write"];

    for (const via of [instance, `edge-1, ${instance}`, ` ${instance}\t, edge-2`]) {
      const response = await post(via);
      expect(response.status).toBe(508);
      expect(await response.json()).toEqual({
        code: "loop-detected",
        message:
          `The request already passed through this service (tower-edge-via names its instance ${instance}): one of ` +
          "its observers delivers to its own intake. Nothing was accepted.",
      });
    }

    expect(loopsRefused["/write"] - before).toBe(3);
  });

  it("refuse (400) a chain that cannot be carried on, uncounted as a loop", async () => {
    const before = loopsRefused["/write"];
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `edge-${index}`).join(", ");

    expect((await post(ids(16))).status).toBe(200);
    for (const [via, problem] of [
      [ids(17), "names 17 services, more than 16"],
      [`edge-1, ${"e".repeat(65)}`, `names "${"e".repeat(64)}", not an id of at most 64 visible ASCII characters`],
      ["edge 1", `names "edge 1", not an id of at most 64 visible ASCII characters`],
    ]) {
      const response = await post(via);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        code: "validation-failed",
        message: `The request's tower-edge-via ${problem}. Nothing was accepted.`,
      });
    }

    expect(loopsRefused["/write"]).toBe(before);
  });
});
