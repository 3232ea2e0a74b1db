/**
 * What an observer's owner changes with PATCH, seen at a real HTTP receiver: pausing holds the
 * data in the backlog and resuming delivers them in order; extra headers go with every delivery
 * and never come back out of the API; a new secret signs beside the one it replaces.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReceiver, type ReceivedRequest, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, metricUnderTest, oneTo, type Service, startService, towerJsonValues } from "./support/service.ts";

let service: Service;
const receivers: HttpReceiver[] = [];

async function receiver(): Promise<HttpReceiver> {
  const started = await startHttpReceiver();
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
  await Promise.all(receivers.map((started) => started.close()));
});

describe("pause and resume", () => {
  it("holds the data of a paused observer in its backlog and delivers them all, in order, once it is active", async () => {
    const metric = metricUnderTest(service, "paused");
    await metric.create();
    const observer = await receiver();
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: observer.url });
    const paused = await metric.change(id, { state: "paused" });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id, state: "paused", status: { backlog: 0 } });

    for (const expected of [3, 6, 9]) {
      await metric.post(3);
      await eventually(async () => (await metric.status(id)).backlog === expected, 10_000, {
        what: `a backlog of ${expected}`,
      });
    }
    // Each datum was in the backlog before the next post: none was tried on its way there.
    expect(observer.attempts).toBe(0);
    const held = await metric.report(id);
    expect(held.state).toBe("paused");
    expect(held.status).toMatchObject({ delivered: 0, failed: 0, backlog: 9, nextAttemptAt: null });
    expect(held.status.oldestBacklogAt).toEqual(expect.any(String));

    const resumed = await metric.change(id, { state: "active" });
    expect(resumed.status).toBe(200);
    expect(resumed.body.state).toBe("active");
    await eventually(() => towerJsonValues(observer.received).length >= 9, 10_000, { what: "9 data received" });
    // Data posted after the resumption come after the held ones.
    await metric.post(2);
    await eventually(() => towerJsonValues(observer.received).length >= 11, 10_000, { what: "11 data received" });
    expect(towerJsonValues(observer.received)).toEqual(oneTo(11));
    const status = await eventually(async () => {
      const current = await metric.status(id);
      return current.delivered === 11 ? current : undefined;
    }, 10_000);
    expect(status).toMatchObject({ delivered: 11, failed: 0, dead: 0, backlog: 0, oldestBacklogAt: null });
  });
});

describe("headers", () => {
  it("sends an observer's headers with every delivery, retries included, and never shows them", async () => {
    const metric = metricUnderTest(service, "with-headers");
    await metric.create();
    const observer = await receiver();
    const registration = { format: "TOWER/JSON", callbackUrl: observer.url, headers: { Authorization: "Bearer abc" } };
    const registered = await service.raw("POST", `${metric.path}/observers`, registration);
    expect(registered.status).toBe(201);
    const id = JSON.parse(registered.text).id as string;
    observer.failNext(1, 503);

    await metric.post(1);
    await eventually(() => observer.received.length === 1, 10_000);
    await metric.post(1);
    await eventually(() => observer.received.length === 2, 10_000);
    // The failed attempt, its retry from the backlog, and a delivery straight from a batch.
    expect(observer.requests.map((request) => request.status)).toEqual([503, 204, 204]);
    expect(observer.requests.map((request) => request.headers.authorization)).toEqual(Array(3).fill("Bearer abc"));

    const changed = await service.raw("PATCH", `${metric.path}/observers/${id}`, {
      headers: { Authorization: "Bearer xyz" },
    });
    expect(changed.status).toBe(200);
    await metric.post(1);
    await eventually(() => observer.received.length === 3, 10_000);
    expect(observer.received[2]!.headers.authorization).toBe("Bearer xyz");

    const answers = [
      registered.text,
      changed.text,
      (await service.raw("GET", `${metric.path}/observers/${id}`)).text,
      (await service.raw("GET", `${metric.path}/observers`)).text,
      // Registering the same target again answers the stored observer.
      (await service.raw("POST", `${metric.path}/observers`, { ...registration, headers: undefined })).text,
    ];
    for (const text of answers) {
      expect(text).toContain(id);
      // Header names may be shown, never their values. (The id is taken out first: a UUID may hold "abc".)
      expect(text.replaceAll(id, "")).not.toMatch(/bearer|abc|xyz/i);
    }
  });
});

/** The signatures of a Standard Webhooks delivery signed with `key`. */
function expectedSignature(request: ReceivedRequest, key: string | Buffer): string {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest("base64")}`;
}

const signatures = (request: ReceivedRequest) => (request.headers["webhook-signature"] as string).split(" ");

describe("secret rotation", () => {
  it("signs with the new and the replaced secret side by side; a generated secret is shown once", async () => {
    const metric = metricUnderTest(service, "rotated");
    await metric.create();
    const observer = await receiver();
    const first = "the-first-secret-0123456789";
    const second = "the-second-secret-0123456789";
    const id = await metric.observe({ format: "TOWER/JSON", callbackUrl: observer.url, secret: first });

    await metric.post(1);
    await eventually(() => observer.received.length === 1, 10_000);
    expect(signatures(observer.received[0]!)).toEqual([expectedSignature(observer.received[0]!, first)]);

    const rotated = await service.raw("PATCH", `${metric.path}/observers/${id}`, { secret: second });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain("secret");
    await metric.post(1);
    await eventually(() => observer.received.length === 2, 10_000);
    const both = observer.received[1]!;
    expect(signatures(both)).toHaveLength(2);
    expect(signatures(both).every((signature) => signature.startsWith("v1,"))).toBe(true);
    expect(signatures(both)).toEqual(
      expect.arrayContaining([expectedSignature(both, first), expectedSignature(both, second)]),
    );

    // A generated secret is answered once, and signs with the bytes it encodes; the secret it
    // replaces signs beside it, the one before that no more.
    const generated = await metric.change(id, { secret: "generate" });
    expect(generated.status).toBe(200);
    const secret = generated.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const shownLater = [
      (await service.raw("GET", `${metric.path}/observers/${id}`)).text,
      (await service.raw("GET", `${metric.path}/observers`)).text,
    ];
    for (const text of shownLater) expect(text).not.toContain("whsec_");
    await metric.post(1);
    await eventually(() => observer.received.length === 3, 10_000);
    const third = observer.received[2]!;
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    expect(signatures(third)).toHaveLength(2);
    expect(signatures(third)).toEqual(
      expect.arrayContaining([expectedSignature(third, key), expectedSignature(third, second)]),
    );
    expect(towerJsonValues(observer.received)).toEqual(oneTo(3));
  });
});
