import { describe, expect, it } from "vitest";
import { request } from "../support/http";
import { recentData, waitForData } from "../support/recent-data";

const write = (path: string, body: string) =>
  request("POST", path, { body, headers: { "content-type": "text/plain; charset=utf-8" } });

async function dataAccepted(metric: string): Promise<number> {
  const response = await request("GET", `/v1/metrics/${metric}`);
  return ((await response.json()) as { dataAccepted: number }).dataAccepted;
}

/** Waits until the metric has accepted `count` data in all, resent ones included. */
async function waitForAccepted(metric: string, count: number): Promise<void> {
  await expect.poll(() => dataAccepted(metric), { timeout: 10_000, interval: 100 }).toBe(count);
}

describe("a batch sent again", () => {
  it("gives the same datum ids, also through the other write API and precision", async () => {
    const metric = "resent.usage";
    const batch = [
      `resent,host=vm1,cpu=cpu0 usage=1 1700000000000000000`,
      `resent,host=vm2 usage=2 1700000000001000000`,
      `resent,host=vm1,cpu=cpu0 usage=3 1700000000002000000`,
    ].join("\n");
    expect((await write("/write", batch)).status).toBe(204);
    const first = await waitForData(metric, 3);
    expect(new Set(first.map((datum) => datum.id)).size).toBe(3);
    for (const { id } of first) expect(id).toMatch(/^[0-9a-f]{16}$/);

    expect((await write("/write", batch)).status).toBe(204);
    await waitForAccepted(metric, 6);
    expect(await (await recentData(metric)).json()).toEqual(first);

    const inMilliseconds = batch.replaceAll(/(\d{13})000000$/gm, "$1");
    expect((await write("/api/v2/write?precision=ms", inMilliseconds)).status).toBe(204);
    await waitForAccepted(metric, 9);
    expect(await (await recentData(metric)).json()).toEqual(first);
  });

  it("gives a datum of another time another id, and one of another value the same", async () => {
    expect((await write("/write", "moved,host=vm1 value=1 1700000000000000000")).status).toBe(204);
    const [first] = await waitForData("moved", 1);
    expect((await write("/write", "moved,host=vm1 value=1 1700000000001000000")).status).toBe(204);
    const [later] = await waitForData("moved", 2);
    expect(later!.id).not.toBe(first!.id);
    expect((await write("/write", "moved,host=vm1 value=5 1700000000001000000")).status).toBe(204);
    await waitForAccepted("moved", 3);
    const kept = (await (await recentData("moved")).json()) as { id: string; value: number }[];
    expect(kept.map(({ id }) => id).sort()).toEqual([first!.id, later!.id].sort());
  });
});
