import { describe, expect, it } from "vitest";
import { ApiError, problemBody } from "../problems.ts";
import { maxJsonDepth, readJson } from "./json-text.ts";

function read(body: string | Uint8Array): Promise<unknown> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return readJson(new Request("http://service/", { method: "POST", body: bytes }));
}

/** The problem `body` is refused with. */
async function refusal(body: string | Uint8Array) {
  const error = await read(body).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return problemBody(error as ApiError);
}

const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

describe("readJson", () => {
  it("reads UTF-8 text of any script", async () => {
    expect(await read('{"température":"😀 ✓","n":[1,{"b":null}]}')).toEqual({
      température: "😀 ✓",
      n: [1, { b: null }],
    });
  });

  it("skips a UTF-8 byte order mark", async () => {
    expect(await read(Uint8Array.of(0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d))).toEqual([1]);
  });

  it.each([
    ["a byte that never occurs in UTF-8", [0x22, 0xff, 0x22]],
    ["a truncated sequence", [0x22, 0xc3, 0x22]],
    ["an overlong encoding of /", [0x22, 0xc0, 0xaf, 0x22]],
    ["an encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22]],
  ])("refuses %s with a 400 problem instead of replacing it", async (_, bytes) => {
    expect(await refusal(Uint8Array.from(bytes))).toEqual({
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is not valid UTF-8.",
    });
  });

  it("refuses text that is not JSON, with the parser's reason", async () => {
    expect(await refusal('{"a":')).toMatchObject({
      status: 400,
      detail: "The body is not valid JSON: Unexpected end of JSON input",
    });
    expect((await refusal("")).detail).toMatch(/^The body is not valid JSON: \S/);
  });

  it("reads documents 64 levels deep", async () => {
    expect(maxJsonDepth).toBe(64);
    expect(await read(nestedArrays(64))).toBeInstanceOf(Array);
    expect(await read(nestedObjects(64))).toHaveProperty("a");
    expect(await read(`${"[".repeat(64)}1,"deep"${"]".repeat(64)}`)).toBeInstanceOf(Array);
  });

  it.each([
    ["arrays", nestedArrays(65)],
    ["objects", nestedObjects(65)],
    ["arrays and objects", `${'[{"a":'.repeat(32)}[]${"}]".repeat(32)}`],
  ])("refuses %s 65 levels deep", async (_, text) => {
    expect(await refusal(text)).toEqual({
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is nested more than 64 levels deep.",
    });
  });

  it("refuses a document 65 levels deep in one branch among shallow ones", async () => {
    const text = `[[1],{"a":2},${nestedArrays(64)},"x"]`;
    expect((await refusal(text)).detail).toBe("The body is nested more than 64 levels deep.");
  });

  it("refuses 10,000 levels of nesting without exhausting the stack", async () => {
    expect((await refusal(nestedArrays(10_000))).detail).toBe("The body is nested more than 64 levels deep.");
    expect((await refusal(nestedObjects(10_000))).detail).toBe("The body is nested more than 64 levels deep.");
  });
});
