import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/problems";
import { headerSafe, influxV1Error, influxV2Error } from "./influx-answers";

describe("influxV1Error", () => {
  it("answers the message in the body and in X-Influxdb-Error, with the error's own headers", async () => {
    const error = new ApiError("unavailable", "try later", { headers: { "retry-after": "5" } });
    const answer = influxV1Error(error);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("x-influxdb-error")).toBe("try later");
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await answer.json()).toEqual({ error: "try later" });
  });

  it("keeps a message that quotes control characters and non-ASCII text whole in the body, and makes it a valid header", async () => {
    const message = 'unable to parse "m\u0000\u0007 v=1\r\nwert=é"';
    const answer = influxV1Error(ApiError.validation([], message));
    expect(answer.headers.get("x-influxdb-error")).toBe('unable to parse "m?? v=1??wert=?"');
    expect(await answer.json()).toEqual({ error: message });
  });
});

describe("influxV2Error", () => {
  it("answers the 2.x shape with the status's code", async () => {
    const answer = influxV2Error(ApiError.validation([], "bad line"));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ code: "invalid", message: "bad line" });
  });
});

describe("headerSafe", () => {
  it("leaves printable ASCII as it is", () => {
    expect(headerSafe('field type conflict: a=1i, b="x" ~ {}')).toBe('field type conflict: a=1i, b="x" ~ {}');
  });
});
