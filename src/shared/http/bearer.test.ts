import { describe, expect, it } from "vitest";
import { bearerToken } from "./bearer.ts";

describe("bearerToken", () => {
  it.each([
    ["Bearer abc.def-123", "abc.def-123"],
    ["bearer abc", "abc"],
    ["BEARER abc", "abc"],
    ["Bearer   abc  ", "abc"],
  ])("reads the token of %j", (authorization, token) => {
    expect(bearerToken(authorization)).toBe(token);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another scheme", "Basic abc"],
    ["a scheme without a token", "Bearer "],
    ["two tokens", "Bearer abc def"],
    ["no space after the scheme", "Bearerabc"],
    ["text before the scheme", "x Bearer abc"],
  ])("finds none in %s", (_, authorization) => {
    expect(bearerToken(authorization)).toBeUndefined();
  });
});
