import { it } from "vitest";
import { request } from "../support/http";
it("times", async () => {
  for (let round = 0; round < 6; round++) {
    const t = performance.now();
    for (let i = 0; i < 50; i++) await (await request("PUT", `/metrics/m${round}-${i}`)).text();
    const puts = performance.now() - t;
    const t2 = performance.now();
    for (let i = 0; i < 20; i++) await (await request("GET", "/resources")).text();
    console.log("ROUND", round, "50 PUT", Math.round(puts), "20 GET /resources", Math.round(performance.now() - t2));
  }
}, 300_000);
