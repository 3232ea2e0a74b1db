import { runInDurableObject, SELF } from "cloudflare:test";
import { DurableObject } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import * as deployed from "../worker/index";
import { journalShard, journalShards } from "./journal/journal-client";
import { journaledQueue } from "./journal/journaled-queue";
import { localTestEnv as env } from "./journal/testing/local-test-env";
import * as local from "./local-entry";

const exported = (module: object) => Object.entries(module) as [string, unknown][];

const isDurableObjectClass = (value: unknown): value is typeof DurableObject =>
  typeof value === "function" && value.prototype instanceof DurableObject;

const journalSizes = () =>
  Promise.all(Array.from({ length: journalShards }, (_, shard) => journalShard(env, shard).size()));

describe("the local entry", () => {
  it("exports every Durable Object class of the Worker as a subclass of its own, under the same name", () => {
    const classes = exported(deployed).filter(([, value]) => isDurableObjectClass(value));
    expect(classes.length).toBeGreaterThan(0);
    for (const [name, deployedClass] of classes) {
      const localClass = (local as Record<string, unknown>)[name];
      expect(localClass, name).not.toBe(deployedClass);
      expect((localClass as { prototype: object }).prototype, name).toBeInstanceOf(
        deployedClass as typeof DurableObject,
      );
    }
  });

  it("constructs the Worker's Durable Objects with the local env: their sends are journaled", async () => {
    await runInDurableObject(env.METRIC.getByName("local-entry.env"), (instance) => {
      expect((instance as unknown as { env: Env }).env.INTAKE_QUEUE).toBe(journaledQueue(env));
    });
  });

  it("answers the Worker's routes", async () => {
    const response = await SELF.fetch("http://tower.example/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  it("answers the launcher's controls before the Worker, which does not know them", async () => {
    const headers = { "x-local-control-token": env.LOCAL_CONTROL_TOKEN! };
    expect((await SELF.fetch("http://tower.example/_local/drain", { headers })).status).toBe(200);
    const unknown = await SELF.fetch("http://tower.example/_local/drain");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ detail: "No route matches /_local/drain." });
  });

  it("journals an accepted datum until its batch has consumed it", async () => {
    const send = vi.spyOn(env.INTAKE_QUEUE, "send");
    const body = rdfJsonBody([
      { id: "local-entry-1", metric: "local.entry", timestamp: Date.now(), value: 1, resourceId: "vm1" },
    ]);
    const accepted = await SELF.fetch("http://tower.example/monitoringdata", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(accepted.status, await accepted.text()).toBe(204);
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ journalEntry: expect.any(Array) }), {
      contentType: "v8",
    });
    await expect
      .poll(async () => (await journalSizes()).reduce((total, size) => total + size, 0), { timeout: 30_000 })
      .toBe(0);
    vi.restoreAllMocks();
  }, 120_000);
});
