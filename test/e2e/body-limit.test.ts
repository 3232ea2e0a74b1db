import { afterAll, beforeAll, expect, it } from "vitest";
import { type Service, startService } from "./support/service.ts";

let service: Service;

beforeAll(async () => {
  service = await startService({ MAX_BODY_BYTES: "100000" });
});

afterAll(async () => {
  await service?.stop();
});

/** Posts `body` to the intake; its status, or how the request failed. */
async function postStatus(body: RequestInit["body"], init: RequestInit = {}): Promise<number | string> {
  try {
    const response = await fetch(`${service.url}/monitoringdata`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      ...init,
    });
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    return `fetch failed: ${String((error as Error).cause ?? error)}`;
  }
}

/** A chunked body of `count` chunks of `size` bytes. */
function chunked(count: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ === count) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

it("answers 413 to bodies over the limit, with a length or chunked, and the next request normally", async () => {
  for (let attempt = 0; attempt < 5; attempt++) {
    expect(await postStatus(" ".repeat(1_000_000))).toBe(413);
    expect(await postStatus(chunked(50, 10_000), { duplex: "half" } as RequestInit)).toBe(413);
    expect((await service.raw("POST", "/monitoringdata", {})).status).toBe(400);
  }
});
