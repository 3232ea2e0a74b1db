import { afterAll, beforeAll, expect, it } from "vitest";
import { type Service, startService } from "./support/service.ts";

/*
 * The dashboard's and the docs page's files come from the Workers static assets (wrangler.toml
 * [assets]), which each local server sets up in its own way: `npm start` from wrangler's options
 * for Miniflare, `npm run dev` inside wrangler dev. Both must serve them alike.
 */

let service: Service;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.stop();
});

it.each([
  ["/", "text/html", "<html"],
  ["/ui/", "text/html", "<html"],
  ["/ui/dashboard.js", "text/javascript", ""],
  ["/ui/dashboard.css", "text/css", ""],
  ["/_docs/scalar.js", "text/javascript", ""],
  ["/docs", "text/html", "/_docs/scalar.js"],
])("serves %s as %s", async (path, type, containing) => {
  const response = await fetch(`${service.url}${path}`, { redirect: "manual" });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain(type);
  const body = await response.text();
  expect(body.length).toBeGreaterThan(0);
  expect(body).toContain(containing);
});

it("answers a file the assets do not have with the API's 404", async () => {
  const response = await fetch(`${service.url}/ui/no-such-file.js`);
  expect(response.status).toBe(404);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
});
