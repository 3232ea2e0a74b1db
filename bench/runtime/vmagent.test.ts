import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startBackendReceiver } from "../load/receivers/backend-receiver.ts";
import { receiverHost } from "../load/receivers/receivers.ts";
import { samplesPerBody, sequencedSeriesWrites } from "../load/requests/series-writes.ts";
import { runDeliveredRound } from "../load/rounds/delivered-round.ts";
import { startVmagent, vmagentArguments } from "./vmagent.ts";

const debianVmagent = "/usr/bin/vmagent";

describe("vmagent", () => {
  it("listens, forwards and buffers where it is told", () => {
    expect(vmagentArguments(8429, "http://127.0.0.1:9/api/v1/write", "/tmp/buffer")).toEqual([
      "-httpListenAddr=127.0.0.1:8429",
      "-remoteWrite.url=http://127.0.0.1:9/api/v1/write",
      "-remoteWrite.tmpDataPath=/tmp/buffer",
    ]);
  });

  it("is not started without its binary", async () => {
    expect(await startVmagent("/nonexistent/vmagent", "http://127.0.0.1:9/")).toBeUndefined();
  });

  it.runIf(existsSync(debianVmagent))("forwards every sample of the bench's bodies, its CPU time counted", async () => {
    const receiver = await startBackendReceiver("PROMETHEUS");
    const vmagent = await startVmagent(debianVmagent, `http://${receiverHost}:${receiver.port}/api/v1/write`);
    try {
      const round = await runDeliveredRound({
        baseUrl: vmagent!.url,
        requests: sequencedSeriesWrites({ first: 0, count: 2, metricOf: () => "m", startMs: Date.now() }),
        receiver,
        groups: { vmagent: vmagent!.process },
      });
      expect(round).toMatchObject({ accepted: 2 * samplesPerBody, delivered: 2 * samplesPerBody, unreadable: 0 });
      expect(round.cpu.vmagent).toBeGreaterThanOrEqual(0);
    } finally {
      await vmagent?.stop();
      await receiver.close();
    }
  });
});
