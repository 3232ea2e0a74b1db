import { describe, expect, it } from "vitest";
import { streamAddress, streamBase } from "./stream-address";

describe("streamBase", () => {
  it("is the request's origin without a public URL", () => {
    expect(streamBase("http://127.0.0.1:8787/v1/data-collectors/a/configuration", "")).toBe("http://127.0.0.1:8787");
  });

  it("is the public URL when one is set, without its trailing slash", () => {
    expect(streamBase("http://10.0.0.5/v1/data-collectors/a/configuration", "https://monitor.example.com/tower/")).toBe(
      "https://monitor.example.com/tower",
    );
  });

  it("carries the token prefix the collector used, as it wrote it", () => {
    expect(streamBase("http://host/c/to%2Bken/v1/data-collectors/a/configuration", "")).toBe("http://host/c/to%2Bken");
    expect(streamBase("http://host/c/t/v1/data-collectors/a/configuration", "https://p.example")).toBe(
      "https://p.example/c/t",
    );
  });
});

describe("streamAddress", () => {
  it("names the original's stream of the metric, percent-encoded", () => {
    expect(streamAddress("http://host", "ResponseTime")).toBe(
      "http://host/streams/http%3A%2F%2Fwww.modaclouds.eu%2Fstreams%2FResponseTime",
    );
  });
});
