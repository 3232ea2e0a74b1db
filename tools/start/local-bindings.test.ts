import { expect, it } from "vitest";
import { localBindings } from "./local-bindings.ts";

const relay = { relayUrl: "http://127.0.0.1:8788", relayToken: "launcher-token" };

it("runs open, allows private observers and names the launcher's relay by default", () => {
  expect(localBindings({ env: {}, devVars: {}, ...relay })).toEqual({
    AUTH_DISABLED: "true",
    ALLOW_PRIVATE_OBSERVERS: "true",
    RELAY_URL: "http://127.0.0.1:8788",
    RELAY_TOKEN: "launcher-token",
  });
});

it("takes the Worker's settings from the environment, but not the relay's nor anything else", () => {
  const env = {
    AUTH_DISABLED: "false",
    MAX_BODY_BYTES: "4096",
    RELAY_URL: "http://elsewhere",
    HOME: "/root",
    EMPTY: "",
  };
  expect(localBindings({ env, devVars: {}, ...relay })).toEqual({
    AUTH_DISABLED: "false",
    ALLOW_PRIVATE_OBSERVERS: "true",
    MAX_BODY_BYTES: "4096",
    RELAY_URL: "http://127.0.0.1:8788",
    RELAY_TOKEN: "launcher-token",
  });
});

it("lets .dev.vars override everything", () => {
  const bindings = localBindings({
    env: { MAX_BODY_BYTES: "4096" },
    devVars: { MAX_BODY_BYTES: "8192", AUTH_DISABLED: "false", RELAY_URL: "http://my-relay" },
    ...relay,
  });
  expect(bindings).toMatchObject({ MAX_BODY_BYTES: "8192", AUTH_DISABLED: "false", RELAY_URL: "http://my-relay" });
});
