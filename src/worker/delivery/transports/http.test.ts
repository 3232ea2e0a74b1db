import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { instanceId } from "../../ops/instance-id";
import type { Delivery } from "../../vocabulary/delivery";
import { deliverOverHttp } from "./http";

/** One delivery of one datum to http://<id>.example/, with the observer's own `headers`. */
function delivery(id: string, headers: Record<string, string> = {}, via?: string[]): Delivery {
  return {
    target: { id, format: "TOWER/JSON", protocol: "HTTP", callbackUrl: `http://${id}.example/`, secrets: [], headers },
    runs: [["via-checked", [["d1", 1_000, 1, "vm1"]]]],
    ...(via ? { via } : {}),
    lane: id,
    webhookId: `msg_${id}`,
    attempt: 1,
  };
}

/**
 * The headers of the requests to http://<id>.example/, each answered 204. Other requests (other
 * test files' deliveries, still under way in this runtime) go out as they would have.
 */
function requestsTo(id: string): Headers[] {
  const sent: Headers[] = [];
  const send = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).host !== `${id}.example`) return send(input, init);
    sent.push(request.headers);
    return new Response(null, { status: 204 });
  });
  return sent;
}

describe("deliverOverHttp", () => {
  afterEach(() => vi.restoreAllMocks());

  it("names this service's instance in tower-edge-via", async () => {
    const sent = requestsTo("via-plain");

    expect(await deliverOverHttp(delivery("via-plain"), 1_000)).toMatchObject({ ok: true });

    expect(sent.map((headers) => headers.get("tower-edge-via"))).toEqual([await instanceId(env)]);
  });

  it("names the upstream services the data came through before this service", async () => {
    const sent = requestsTo("via-chain");

    await deliverOverHttp(delivery("via-chain", {}, ["edge-1", "edge-2"]), 1_000);

    expect(sent.map((headers) => headers.get("tower-edge-via"))).toEqual([`edge-1, edge-2, ${await instanceId(env)}`]);
  });

  it("keeps its own tower-edge-via over an observer's header of that name", async () => {
    const sent = requestsTo("via-forged");

    await deliverOverHttp(delivery("via-forged", { "tower-edge-via": "somewhere-else", "x-tenant": "t1" }), 1_000);

    expect(sent.map((headers) => [headers.get("tower-edge-via"), headers.get("x-tenant")])).toEqual([
      [await instanceId(env), "t1"],
    ]);
  });
});
