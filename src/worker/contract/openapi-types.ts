import type { generateSpecs } from "hono-openapi";

/** The OpenAPI 3.1 document as hono-openapi builds it, and the parts the builder completes. */
export type OpenApiDocument = Awaited<ReturnType<typeof generateSpecs>>;
export type Operation = NonNullable<OpenApiDocument["paths"][string]["get"]>;
export type Responses = NonNullable<Operation["responses"]>;
export type SecurityRequirement = NonNullable<Operation["security"]>[number];
