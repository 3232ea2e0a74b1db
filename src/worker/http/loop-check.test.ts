import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/problems";
import { instanceId } from "../ops/instance-id";
import type { AppEnv } from "./app-env";
import { loopsRefused, refuseLoop } from "./loop-check";

/** A route that runs the check, and answers 204 when it passes or the refusal's status and message. */
const route = new Hono<AppEnv>()
  .post("/", async (c) => {
    await refuseLoop(c, "/write");
    return c.body(null, 204);
  })
  .onError((error) => {
    if (!(error instanceof ApiError)) throw error;
    return Response.json({ code: error.code, message: error.message }, { status: error.status });
  });

const post = (via?: string) =>
  route.request("/", { method: "POST", headers: via === undefined ? {} : { "tower-edge-via": via } }, env);

describe("refuseLoop", () => {
  it("passes a request without tower-edge-via", async () => {
    expect((await post()).status).toBe(204);
  });

  it("passes a request whose tower-edge-via names other services only", async () => {
    const instance = await instanceId(env);
    for (const via of ["edge-1", "edge-1, edge-2", `${instance}0`, `x${instance}`, ""]) {
      expect((await post(via)).status).toBe(204);
    }
  });

  it("refuses (508) a request whose tower-edge-via names this service, and counts it for its route", async () => {
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
});
