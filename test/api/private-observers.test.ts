import { describe, expect, it } from "vitest";
import { sendJson } from "./support/http";
import { declareMetric, listObservers, observersPath } from "./support/metrics";

// The worker project runs with ALLOW_PRIVATE_OBSERVERS=true, as local development does; the
// refusals without it are tested in test/worker-auth/observer-address-policy.test.ts.
describe("ALLOW_PRIVATE_OBSERVERS=true", () => {
  it("registers observers on loopback, private and local-network destinations", async () => {
    await declareMetric("local");
    const bodies = [
      { callbackUrl: "http://127.0.0.1:8080/hook" },
      { callbackUrl: "http://localhost:8080/hook" },
      { callbackUrl: "http://[::1]:8080/hook" },
      { callbackUrl: "http://receiver:8080/hook" },
      { protocol: "TCP", format: "GRAPHITE", observerHost: "10.0.0.5", observerPort: 2003 },
      { protocol: "UDP", format: "INFLUXDB", observerHost: "fd00::5", observerPort: 8089 },
    ];
    for (const body of bodies) {
      const response = await sendJson("POST", observersPath("local"), body);
      expect(response.status, await response.clone().text()).toBe(201);
    }
    expect(await listObservers("local")).toHaveLength(bodies.length);
  });
});
