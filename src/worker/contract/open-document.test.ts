import { describe, expect, it } from "vitest";
import { withoutAuthentication } from "./open-document";
import type { OpenApiDocument } from "./openapi-types";

const secured = {
  openapi: "3.1.0",
  info: { title: "t", version: "1", description: "The API." },
  security: [{ bearer: ["admin"] }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    "/metrics": { get: { security: [{ bearer: ["admin"] }], responses: {} } },
    "/monitoringdata": { post: { security: [{ bearer: ["ingest"] }, { bearer: ["admin"] }], responses: {} } },
  },
} as unknown as OpenApiDocument;

describe("withoutAuthentication", () => {
  it("requires no token anywhere, says why, and leaves the document it was given as it was", () => {
    const before = structuredClone(secured);
    const open = withoutAuthentication(secured);
    expect(open.security).toEqual([]);
    expect(open.components?.securitySchemes).toBeUndefined();
    expect(open.paths["/metrics"]?.get?.security).toEqual([]);
    expect(open.paths["/monitoringdata"]?.post?.security).toEqual([]);
    expect(open.info.description).toMatch(/^The API\.\n\nThis service runs with AUTH_DISABLED=true/);
    expect(secured).toEqual(before);
  });
});
