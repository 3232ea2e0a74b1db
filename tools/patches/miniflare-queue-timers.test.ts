import { join } from "node:path";
import { Miniflare } from "miniflare";
import { expect, it } from "vitest";
import { eventually } from "../../test/e2e/support/service.ts";
import { modulesDirectory, patchesDirectory, patchState } from "./apply.ts";
import { shippedSource } from "./shipped.ts";

/*
 * Tripwire of patches/workers-sdk-15670-15676-miniflare-queue-enqueue-without-timer.patch: the
 * local queue broker's timer per message (cloudflare/workers-sdk#15670; fix in pull request #15676,
 * open, in no release).
 */

const patch = join(patchesDirectory, "workers-sdk-15670-15676-miniflare-queue-enqueue-without-timer.patch");

it("is applied to the installed miniflare (npm install applies it)", () => {
  expect(patchState(patch, modulesDirectory)).toBe("applied");
});

it("is needed: the installed miniflare's broker, as released, gives every message a timer; otherwise delete the patch", () => {
  const broker = shippedSource(
    "miniflare/dist/src/workers/queues/broker.worker.js",
    "src/workers/queues/broker.worker.ts",
  );
  const enqueue = broker.slice(broker.indexOf("#enqueue("), broker.indexOf("#getMetricsResponseObject("));
  expect(enqueue).toMatch(
    /const delay = message\.delaySecs \?\? globalDelay;\s*this\.timers\.setTimeout\(fn, delay \* 1000\);/,
  );
});

it("lets a Worker send more messages at once than workerd allows a Durable Object timers (10,000)", async () => {
  const messages = 10_100;
  const miniflare = new Miniflare({
    modules: true,
    script: `let received = 0;
      export default {
        async fetch(request, env) {
          if (new URL(request.url).pathname === "/received") return new Response(String(received));
          const sends = [];
          for (let sent = 0; sent < ${messages}; sent += 100)
            sends.push(env.QUEUE.sendBatch(Array.from({ length: 100 }, (_, index) => ({ body: sent + index }))));
          await Promise.all(sends);
          return new Response("sent");
        },
        async queue(batch) { received += batch.messages.length; },
      };`,
    queueProducers: { QUEUE: "burst" },
    queueConsumers: { burst: { maxBatchSize: 100, maxBatchTimeout: 0 } },
  });
  try {
    const sent = await miniflare.dispatchFetch("http://worker/");
    expect(await sent.text()).toBe("sent");
    const received = async () => Number(await (await miniflare.dispatchFetch("http://worker/received")).text());
    await eventually(async () => (await received()) === messages, 30_000);
  } finally {
    await miniflare.dispose();
  }
});
