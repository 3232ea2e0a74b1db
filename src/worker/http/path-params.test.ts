import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/problems";
import { assertUtf8Path } from "./path-params";

const refused = (url: string) => {
  try {
    assertUtf8Path(url);
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.status : error;
  }
};

describe("assertUtf8Path", () => {
  it.each([
    "http://service/metrics/cpu",
    "http://service/metrics/CPU%20load",
    "http://service/resources/a%2Fb",
    `http://service/metrics/${encodeURIComponent("€😀")}`,
    "http://service/metrics/€",
    "http://service/metrics/cpu?name=%FF",
  ])("takes %s", (url) => {
    expect(refused(url)).toBeUndefined();
  });

  it.each([
    ["an escape of a byte that is not UTF-8", "http://service/metrics/%FF"],
    ["an overlong encoding", "http://service/metrics/%C0%AF"],
    ["an encoded surrogate", "http://service/metrics/%ED%A0%80"],
    ["a sequence cut short", "http://service/metrics/%E2%82"],
    ["U+FFFD, which raw bytes that are not UTF-8 become", "http://service/metrics/a%EF%BF%BDb"],
    ["U+FFFD in lower-case escapes", "http://service/metrics/a%ef%bf%bdb"],
    ["a % that starts no escape", "http://service/metrics/100%"],
  ])("refuses %s with a 400", (_, url) => {
    expect(refused(url)).toBe(400);
  });
});
