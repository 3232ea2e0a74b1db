import { describe, expect, it } from "vitest";
import { SelectorSyntaxError } from "./selector-syntax-error";

describe("SelectorSyntaxError", () => {
  it("says the problem, the position and what was expected", () => {
    const error = new SelectorSyntaxError(14, 'unexpected "}"', "expected a label name");
    expect(error.message).toBe('unexpected "}" at position 14: expected a label name');
    expect(error.position).toBe(14);
    expect(error.name).toBe("SelectorSyntaxError");
    expect(error).toBeInstanceOf(Error);
  });

  it("leaves the detail out when there is none", () => {
    expect(new SelectorSyntaxError(0, "an empty label name").message).toBe("an empty label name at position 0");
  });
});
