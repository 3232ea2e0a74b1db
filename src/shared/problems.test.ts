import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, maxListedProblems, maxProblemTextLength, problemBody, zodProblems } from "./problems.ts";

const problemsOf = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ path: `/items/${index}`, message: `Problem ${index}.` }));

describe("problemBody", () => {
  it("lists every problem of a request with few of them, under the detail as given", () => {
    const body = problemBody(ApiError.validation(problemsOf(3), "Three problems."));
    expect(body).toEqual({
      type: "urn:tower-edge:problem:validation-failed",
      title: "Request not valid",
      status: 400,
      detail: "Three problems.",
      errors: problemsOf(3),
    });
  });

  it("lists exactly the limit without a word about others", () => {
    const body = problemBody(ApiError.validation(problemsOf(maxListedProblems), "Many."));
    expect(body.errors).toHaveLength(maxListedProblems);
    expect(body.detail).toBe("Many.");
  });

  it("lists the first problems up to the limit and counts the rest in the detail", () => {
    const body = problemBody(ApiError.validation(problemsOf(maxListedProblems + 250), "Many."));
    expect(body.errors).toEqual(problemsOf(maxListedProblems));
    expect(body.detail).toBe(
      `Many. The first ${maxListedProblems} problems are listed, and 250 more problems are not.`,
    );
  });

  it("cuts a path or a message that echoes a long part of the request", () => {
    const long = "x".repeat(maxProblemTextLength * 10);
    const [problem] = problemBody(ApiError.validation([{ path: `/${long}`, message: `Bad "${long}".` }])).errors!;
    expect(problem!.path).toHaveLength(maxProblemTextLength);
    expect(problem!.path.endsWith("x…")).toBe(true);
    expect(problem!.message).toHaveLength(maxProblemTextLength);
  });

  it("never cuts between the two halves of a surrogate pair", () => {
    const message = `${"x".repeat(maxProblemTextLength - 2)}😀😀`;
    const [problem] = problemBody(ApiError.validation([{ path: "", message }])).errors!;
    expect(problem!.message).toBe(`${"x".repeat(maxProblemTextLength - 2)}…`);
  });

  it("has no errors member for an error without problems", () => {
    expect(problemBody(ApiError.notFound("No."))).not.toHaveProperty("errors");
  });
});

describe("zodProblems", () => {
  const registration = z.strictObject({ format: z.string().optional(), protocol: z.string().optional() });

  it("reports each unknown key at itself, with the key probably meant when one is close", () => {
    const result = registration.safeParse({ fromat: "GRAPHITE", colour: "red", nested: {} });
    expect(result.success || zodProblems(result.error)).toEqual([
      { path: "/fromat", message: 'Unknown field; did you mean "format"?' },
      { path: "/colour", message: "Unknown field." },
      { path: "/nested", message: "Unknown field." },
    ]);
  });

  it("finds the key meant in a nested object, among that object's keys", () => {
    const schema = z.strictObject({ target: z.strictObject({ host: z.string(), port: z.number() }) });
    const result = schema.safeParse({ target: { host: "h", port: 1, prot: 2 } });
    expect(result.success || zodProblems(result.error)).toEqual([
      { path: "/target/prot", message: 'Unknown field; did you mean "port"?' },
    ]);
  });
});
