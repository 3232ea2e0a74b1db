import { describe, expect, it } from "vitest";
import { request } from "../../../test/api/support/http";
import { requiredAccess } from "../http/auth";

/*
 * The dashboard's page and files, served from the static assets that `npm install` builds
 * (tools/dashboard-assets.mjs). They are not part of the API: its document does not list them.
 */

describe("GET /", () => {
  it("answers the dashboard's page, which names its files under /ui/", async () => {
    const response = await request("GET", "/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('src="/ui/dashboard.js"');
    expect(page).toContain('href="/ui/dashboard.css"');
  });

  it("is open, with its files, at the root only: under /v1 they need a token like any other path", () => {
    for (const path of ["/", "/ui/dashboard.js", "/ui/icon.svg"]) expect(requiredAccess(path), path).toBe("open");
    for (const path of ["/v1", "/v1/", "/v1/ui/dashboard.js", "/uix", "/ui"]) {
      expect(requiredAccess(path), path).toBe("admin");
    }
  });
});

describe("GET /ui/", () => {
  it("answers the dashboard's page as / does", async () => {
    const response = await request("GET", "/ui/");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(await (await request("GET", "/")).text());
  });

  it("is where /ui/index.html redirects to", async () => {
    const response = await request("GET", "/ui/index.html", { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(new URL(response.headers.get("location") ?? "", "http://service").pathname).toBe("/ui/");
  });

  it("is not /ui, which is no route", async () => {
    const response = await request("GET", "/ui", { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("GET /ui/{file}", () => {
  it.each([
    ["dashboard.js", /javascript/],
    ["dashboard.css", /^text\/css/],
    ["icon.svg", /^image\/svg\+xml/],
  ])("answers %s", async (file, contentType) => {
    const response = await request("GET", `/ui/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(contentType);
    await response.body?.cancel();
  });

  it("answers a file that is not there with a 404 problem, like an unknown path", async () => {
    const response = await request("GET", "/ui/nope.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ type: "urn:tower-edge:problem:not-found", status: 404 });
  });

  it("has no files under /v1", async () => {
    expect((await request("GET", "/v1/ui/dashboard.js")).status).toBe(404);
  });
});
