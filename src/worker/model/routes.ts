import { Hono } from "hono";
import type { AppEnv } from "../app";
import { knowledgeBase, type ModelWriteResult } from "./knowledge-base";
import type { Referrer } from "./model-store";
import { ApiError } from "../../shared/problems";
import { modelUploadSchema, resourceIdParams } from "./schema";
import { jsonBody } from "../../shared/http/json-body";
import { pathParams } from "../http/path-params";

function assertWritten(result: ModelWriteResult): void {
  if (!result.ok) throw ApiError.validation(result.problems, "The model is not valid; nothing was stored.");
}

/** Referrers named in the detail; the `errors` list names all of them. */
const referrersInDetail = 10;

function stillReferenced(id: string, referrers: readonly Referrer[]): ApiError {
  const named = referrers.slice(0, referrersInDetail).map((referrer) => `${referrer.id} (${referrer.field})`);
  const more = referrers.length - named.length;
  const list = more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
  return new ApiError("conflict", `"${id}" is still referred to by ${list}; nothing was deleted.`, { problems: referrers.map((referrer) => ({
      path: "/id",
      message: `${referrer.clazz} ${referrer.id} refers to it in ${referrer.field}.`,
    })) });
}

/** The resource model: GET, PUT (replace) and POST (upsert) /resources, GET and DELETE /resources/:id. */
export const resourceRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await knowledgeBase(c.env).readModel()))
  .put("/", jsonBody(modelUploadSchema), async (c) => {
    assertWritten(await knowledgeBase(c.env).replaceModel(c.req.valid("json")));
    return c.body(null, 204);
  })
  .post("/", jsonBody(modelUploadSchema), async (c) => {
    assertWritten(await knowledgeBase(c.env).upsertResources(c.req.valid("json")));
    return c.body(null, 204);
  })
  .get("/:id", pathParams(resourceIdParams), async (c) => {
    const { id } = c.req.valid("param");
    const resource = await knowledgeBase(c.env).readResource(id);
    if (!resource) throw ApiError.notFound(`No resource has the id "${id}".`);
    return c.json(resource);
  })
  .delete("/:id", pathParams(resourceIdParams), async (c) => {
    const { id } = c.req.valid("param");
    const deletion = await knowledgeBase(c.env).deleteResource(id);
    switch (deletion.outcome) {
      case "deleted":
        return c.body(null, 204);
      case "not-found":
        throw ApiError.notFound(`No resource has the id "${id}".`);
      case "referenced":
        throw stillReferenced(id, deletion.referrers);
    }
  });
