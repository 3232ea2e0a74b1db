import { describe, expect, it } from "vitest";
import { splitPathToken } from "./path-token";

describe("splitPathToken", () => {
  it("splits the token prefix from the path after it", () => {
    expect(splitPathToken("/c/abc/v1/data-collectors")).toEqual({
      prefix: "/c/abc",
      token: "abc",
      path: "/v1/data-collectors",
    });
  });

  it("decodes the token, and keeps the prefix as written", () => {
    expect(splitPathToken("/c/a%2Bb/streams/x")).toEqual({ prefix: "/c/a%2Bb", token: "a+b", path: "/streams/x" });
  });

  it("takes a prefix alone as the root path", () => {
    expect(splitPathToken("/c/abc")).toEqual({ prefix: "/c/abc", token: "abc", path: "/" });
  });

  it("leaves other paths alone", () => {
    for (const path of ["/v1/data-collectors", "/c", "/c/", "/cc/abc/x", "/v1/c/abc/x"]) {
      expect(splitPathToken(path)).toEqual({ prefix: "", token: undefined, path });
    }
  });

  it("carries no token when its escape is broken", () => {
    expect(splitPathToken("/c/%E0/x")).toEqual({ prefix: "/c/%E0", token: undefined, path: "/x" });
  });
});
