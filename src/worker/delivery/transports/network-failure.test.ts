import { describe, expect, it } from "vitest";
import { describeNetworkError } from "./network-failure";

describe("describeNetworkError", () => {
  it("names a refused connection, and where to look, rather than the runtime's 'connection lost'", () => {
    expect(describeNetworkError(new Error("Network connection lost."), "http://127.0.0.1:9000/tower")).toBe(
      "connection refused or closed before an answer: is the receiver running and listening at 127.0.0.1:9000?",
    );
  });

  it("says what the runtime's unexplained internal error can be", () => {
    const error = new Error("internal error; reference = 11mpn2fpma8ealv9giok9ig7");
    expect(describeNetworkError(error, "https://receiver.example/hook")).toBe(
      "no HTTP answer from receiver.example:443: its name did not resolve, or what answered does not speak HTTP",
    );
  });

  it("keeps any other message, with the address", () => {
    expect(describeNetworkError(new TypeError("Fetch failed"), "http://[::1]/x")).toBe(
      "network error reaching [::1]:80: Fetch failed",
    );
    expect(describeNetworkError("reset", "http://receiver.example:8080/")).toBe(
      "network error reaching receiver.example:8080: reset",
    );
  });

  it("is what a delivery to a port where nothing listens reports", async () => {
    const refused = await fetch("http://127.0.0.1:1/").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(describeNetworkError(refused, "http://127.0.0.1:1/")).toMatch(/^connection refused/);
  });
});
