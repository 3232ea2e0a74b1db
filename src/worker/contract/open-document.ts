import { ALLOWED_METHODS } from "hono-openapi";
import type { OpenApiDocument } from "./openapi-types";

/** The keys of a path item that hold operations. */
const methods = ALLOWED_METHODS.map((method) => method.toLowerCase() as Lowercase<typeof method>);

const openNote =
  "This service runs with AUTH_DISABLED=true (as npm start runs it): no route needs a token, so the document " +
  "states no security requirement.";

/**
 * The document as a service that runs open answers it: no operation requires a token. A reference
 * page would otherwise mark every operation "Authentication required" and ask for a token that
 * the service neither needs nor checks.
 */
export function withoutAuthentication(document: OpenApiDocument): OpenApiDocument {
  const open = structuredClone(document);
  open.info.description = [open.info.description, openNote].filter(Boolean).join("\n\n");
  open.security = [];
  if (open.components) delete open.components.securitySchemes;
  for (const item of Object.values(open.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (operation) operation.security = [];
    }
  }
  return open;
}
