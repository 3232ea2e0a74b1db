import { settingDefaults } from "../../http/setting-defaults";

/*
 * What the agents' routes say alike in the API's document: how a request names its series' keys,
 * its limits, and that an overload asks the client to send again.
 */

/** The `resource=` and `drop=` query parameters, for a protocol whose labels are called `labels`. */
export function seriesKeyParameters(labels: string, defaultPrimary: string) {
  const parameter = (name: string, description: string) => ({
    name,
    in: "query" as const,
    required: false,
    description,
    schema: { type: "string" as const },
  });
  return [
    parameter(
      "resource",
      `Comma-separated ${labels}, the first present of which is the series' primary label (its value starts the ` +
        `resourceId); default ${defaultPrimary}.`,
    ),
    parameter("drop", `Comma-separated ${labels} left out of the resourceId.`),
  ];
}

/** What a 413 of an agent route means. */
export const agentLimitsDescription =
  `The body is over MAX_BODY_BYTES (${settingDefaults.MAX_BODY_BYTES}), over MAX_DECOMPRESSED_BYTES ` +
  `(${settingDefaults.MAX_DECOMPRESSED_BYTES}) once decompressed, or holds more than MAX_AGENT_DATA_PER_REQUEST ` +
  `(${settingDefaults.MAX_AGENT_DATA_PER_REQUEST}) data: nothing was accepted. The message names the setting and ` +
  "how the protocol's clients send less at once (gzip, smaller batches).";

/** A 401 of an agent route, in the protocol's `content`, with the challenge every 401 carries. */
export function agentUnauthorizedAnswer<Content>(content: Content) {
  return {
    description:
      "No token, or one that matches no configured token (unauthorized). The message names the forms the token may " +
      "take: Authorization: Bearer or Token, the password of Basic credentials (as InfluxDB clients send it), and " +
      "on /write and /query p=.",
    content,
    headers: {
      "WWW-Authenticate": {
        description: 'Bearer realm="tower-edge", with error="invalid_token" for a token that is not valid.',
        schema: { type: "string" as const },
      },
    },
  };
}

/** A 503 of an agent route, in the protocol's `content`: the client sends the request again after Retry-After. */
export function overloadAnswer<Content>(content: Content) {
  return {
    description:
      "The metric store or the intake queue could not be reached, something failed unexpectedly, or the service is " +
      "stopping: nothing was accepted; the client sends the request again after Retry-After seconds.",
    content,
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "string" as const } } },
  };
}
