import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/problems";
import { remoteWriteError } from "./remote-write-error";

describe("remoteWriteError", () => {
  it("answers the message as a line of plain text, with the error's status and headers", async () => {
    const error = new ApiError("unavailable", "Resend it.", { headers: { "retry-after": "5" } });
    const response = remoteWriteError(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.text()).toBe("Resend it.\n");
  });
});
