import { ApiError } from "../problems.ts";
import { utf8BodyText } from "../utf8.ts";

/** The deepest nesting of arrays and objects a body may have; no request of the API needs more than a few levels. */
export const maxJsonDepth = 64;

/** The body's text; bytes that are not UTF-8 are refused. */
function decodeUtf8(bytes: Uint8Array): string {
  const text = utf8BodyText(bytes);
  if (text === undefined) throw new ApiError("malformed-json", "The body is not valid UTF-8.");
  return text;
}

/** The nesting depth of `value`, counted without recursion (a deep document must not exhaust the stack). */
function depthExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/** A request body's text, which must be UTF-8. */
export async function readBodyText(request: Request): Promise<string> {
  return decodeUtf8(new Uint8Array(await request.arrayBuffer()));
}

/**
 * Refuses (400 malformed-json) a parsed body nested more than `maxJsonDepth` levels deep; for a
 * value inside the body, `levelsAbove` is the count of arrays and objects that hold it.
 */
export function assertJsonDepth(value: unknown, levelsAbove = 0): void {
  if (depthExceeds(value, maxJsonDepth - levelsAbove)) {
    throw new ApiError("malformed-json", `The body is nested more than ${maxJsonDepth} levels deep.`);
  }
}

/** Reads a request body as JSON: strict UTF-8, valid JSON, at most `maxJsonDepth` levels deep. */
export async function readJson(request: Request): Promise<unknown> {
  return parseJsonText(await readBodyText(request));
}

/**
 * Parses a body's text as JSON, at most `maxJsonDepth` levels deep unless `checkDepth` is false
 * (the caller then calls `assertJsonDepth` itself where it must).
 */
export function parseJsonText(text: string, checkDepth = true): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError("malformed-json", `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (checkDepth) assertJsonDepth(value);
  return value;
}
