import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import type { z } from "zod";
import { jsonBodyReadByHandler } from "../../shared/http/json-body";
import { readJson } from "../../shared/http/json-text";
import { ApiError, zodProblems } from "../../shared/problems";
import { emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { pathParams } from "../http/path-params";
import { integrityProblems } from "./integrity";
import { knowledgeBase, type ModelWriteResult } from "./knowledge-base";
import { tellRulesTheModelChanged } from "./model-changed";
import type { Referrer } from "./model-store";
import {
  documentedModelUpload,
  type LocatedResource,
  modelDocumentSchema,
  modelUploadSchema,
  resourceIdParams,
  resourceSchema,
} from "./schema";
import { allProblems, judgeableResources, singleElementMessage } from "./upload-problems";

/**
 * The body of PUT (`replace`) or POST /resources, read into resources; a body that breaks the schema
 * is refused with every problem at once, those of its ids and references included (upload-problems.ts).
 */
async function readUpload(c: Context<AppEnv>, method: "PUT" | "POST"): Promise<LocatedResource[]> {
  const body = await readJson(c.req.raw);
  const single = singleElementMessage(body, method);
  if (single !== undefined) throw ApiError.validation([{ path: "", message: single }]);
  const parsed = modelUploadSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = zodProblems(parsed.error);
  const judgeable = judgeableResources(body, problems);
  const integrity =
    method === "PUT"
      ? integrityProblems(judgeable, () => undefined)
      : await knowledgeBase(c.env).upsertProblems(judgeable);
  throw ApiError.validation(allProblems(problems, integrity));
}

/** The body as documented; to typed clients any body, which readUpload judges. */
const uploadBody = jsonBodyReadByHandler(documentedModelUpload as z.ZodType);

function assertWritten(result: ModelWriteResult): void {
  if (!result.ok) throw ApiError.validation(result.problems, "The model is not valid; nothing was stored.");
}

/** Referrers named in the detail; the `errors` list names all of them. */
const referrersInDetail = 10;

function stillReferenced(id: string, referrers: readonly Referrer[]): ApiError {
  const named = referrers.slice(0, referrersInDetail).map((referrer) => `${referrer.id} (${referrer.field})`);
  const more = referrers.length - named.length;
  const list = more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
  return new ApiError("conflict", `"${id}" is still referred to by ${list}; nothing was deleted.`, {
    problems: referrers.map((referrer) => ({
      path: "/id",
      message: `${referrer.clazz} ${referrer.id} refers to it in ${referrer.field}.`,
    })),
  });
}

const invalidUpload = problemAnswer(
  "The body is not JSON, or not a model of either form, or the model it makes is not consistent; nothing was stored.",
);

const unknownResource = problemAnswer("No element has that id (not-found).");

/** The resource model: GET, PUT (replace) and POST (upsert) /resources, GET and DELETE /resources/:id. */
export const resourceRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      tags: ["Resources"],
      summary: "The whole model",
      responses: { 200: jsonAnswer("The model in the grouped form.", modelDocumentSchema) },
    }),
    async (c) => c.json(await knowledgeBase(c.env).readModel()),
  )
  .put(
    "/",
    describeRoute({
      tags: ["Resources"],
      summary: "Replace the model",
      description: "The body becomes the whole model; references are checked against the body alone. Atomic.",
      responses: { 204: emptyAnswer("Stored."), 400: invalidUpload },
    }),
    uploadBody,
    async (c) => {
      assertWritten(await knowledgeBase(c.env).replaceModel(await readUpload(c, "PUT")));
      await tellRulesTheModelChanged(c.env);
      return c.body(null, 204);
    },
  )
  .post(
    "/",
    describeRoute({
      tags: ["Resources"],
      summary: "Insert or replace elements by id",
      description:
        "Elements not named in the body are kept; a stored id may not change class. References are checked " +
        "against the model as it will be. Atomic.",
      responses: { 204: emptyAnswer("Stored."), 400: invalidUpload },
    }),
    uploadBody,
    async (c) => {
      assertWritten(await knowledgeBase(c.env).upsertResources(await readUpload(c, "POST")));
      await tellRulesTheModelChanged(c.env);
      return c.body(null, 204);
    },
  )
  .get(
    "/:id",
    describeRoute({
      tags: ["Resources"],
      summary: "One element",
      responses: {
        200: jsonAnswer("The element and its class.", resourceSchema),
        400: problemAnswer("The path names something that cannot exist (validation-failed)."),
        404: unknownResource,
      },
    }),
    pathParams(resourceIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const resource = await knowledgeBase(c.env).readResource(id);
      if (!resource) throw ApiError.notFound(`No resource has the id "${id}".`);
      return c.json(resource);
    },
  )
  .delete(
    "/:id",
    describeRoute({
      tags: ["Resources"],
      summary: "Remove one element",
      description:
        "Deleting a resource also removes its own references. A data collector that still lists it restores it.",
      responses: {
        204: emptyAnswer("Removed."),
        400: problemAnswer("The path names something that cannot exist (validation-failed)."),
        404: unknownResource,
        409: problemAnswer(
          "Other elements still refer to it; errors names each referrer. Nothing was deleted (conflict).",
        ),
      },
    }),
    pathParams(resourceIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      const deletion = await knowledgeBase(c.env).deleteResource(id);
      switch (deletion.outcome) {
        case "deleted":
          await tellRulesTheModelChanged(c.env);
          return c.body(null, 204);
        case "not-found":
          throw ApiError.notFound(`No resource has the id "${id}".`);
        case "referenced":
          throw stillReferenced(id, deletion.referrers);
      }
    },
  );
