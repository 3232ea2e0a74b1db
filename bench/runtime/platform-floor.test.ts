import { expect, it } from "vitest";
import { startPlatformFloor } from "./platform-floor.ts";

it("answers every request at once, whatever its path or method", async () => {
  const floor = await startPlatformFloor();
  try {
    for (const [path, method] of [
      ["/", "GET"],
      ["/healthz", "GET"],
      ["/monitoringdata", "POST"],
    ] as const) {
      const response = await fetch(`${floor.url}${path}`, { method, body: method === "POST" ? "{}" : undefined });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("ok");
    }
  } finally {
    await floor.dispose();
  }
}, 60_000);
