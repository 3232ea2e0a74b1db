import { expect, it } from "vitest";
import { createApp } from "./app";

it("answers every request 503 while a setting is not valid, naming each bad one in the project's words", async () => {
  const badSettings = { AUTH_DISABLED: "yes", MAX_BODY_BYTES: "1MB" };

  const answer = await createApp().request("/healthz", {}, badSettings);

  expect(answer.status).toBe(503);
  expect(await answer.json()).toMatchObject({
    type: "urn:tower-edge:problem:not-configured",
    detail:
      "The service's settings are not valid, and it serves nothing until they are fixed: " +
      'AUTH_DISABLED: expected "true" or "false"; ' +
      "MAX_BODY_BYTES: expected a whole number of bytes from 1 to 104857600, such as 1048576.",
  });
});
