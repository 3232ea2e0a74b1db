import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { ApiError } from "../../../shared/problems";
import { answered, emptyAnswer, problemReference } from "../../http/answers";
import type { AppEnv } from "../../http/app-env";
import { agentUnauthorizedAnswer } from "../common/route-documentation";
import { influxV1Error, influxV1ErrorSchema } from "./influx-answers";

/*
 * What InfluxDB clients ask before they write: whether the server is up (/ping), and Telegraf's v1
 * output creates its database (/query). This service keeps no series, so it answers just those.
 */

/** The InfluxDB version whose API this service's write routes follow. */
const influxVersion = "1.8.10";

export const pingRoutes = new Hono<AppEnv>().on(
  ["GET", "HEAD"],
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "InfluxDB clients' health probe",
    description: "Open, like /healthz.",
    responses: {
      204: {
        ...emptyAnswer("The service is up."),
        headers: {
          "X-Influxdb-Version": { description: "The InfluxDB API version followed.", schema: { type: "string" } },
        },
      },
    },
  }),
  (c) => c.body(null, 204, { "x-influxdb-version": influxVersion, "x-influxdb-build": "OSS" }),
);

const statementResultSchema = z.strictObject({
  statement_id: z.int().min(0),
  series: z
    .array(z.strictObject({ name: z.string(), columns: z.array(z.string()), values: z.array(z.array(z.string())) }))
    .optional(),
});

export const queryAnswerSchema = z
  .strictObject({ results: z.array(statementResultSchema) })
  .meta({ id: "InfluxQueryResults", description: "InfluxDB 1.x query results." });

type StatementResult = z.output<typeof statementResultSchema>;

const createDatabase = /^CREATE\s+DATABASE\s/i;
const showDatabases = /^SHOW\s+DATABASES$/i;

/** The statement's answer, or undefined for one this service does not answer. */
function answerStatement(statement: string, index: number): StatementResult | undefined {
  if (createDatabase.test(statement)) return { statement_id: index };
  if (showDatabases.test(statement)) {
    return { statement_id: index, series: [{ name: "databases", columns: ["name"], values: [] }] };
  }
  return undefined;
}

/** `q` from the query string, or from a form body as InfluxDB clients also send it. */
async function queryText(request: Request, fromUrl: string | undefined): Promise<string> {
  if (fromUrl !== undefined) return fromUrl;
  const type = request.headers.get("content-type") ?? "";
  if (request.method === "POST" && type.startsWith("application/x-www-form-urlencoded")) {
    return new URLSearchParams(await request.text()).get("q") ?? "";
  }
  return "";
}

/** The 1.x API's error shape, or a problem when the middleware before the route answered. */
const influxV1Content = {
  "application/json": { schema: answered(influxV1ErrorSchema) },
  "application/problem+json": { schema: problemReference },
};

export const queryRoutes = new Hono<AppEnv>().on(
  ["GET", "POST"],
  "/",
  describeRoute({
    tags: ["Intake from agents"],
    summary: "InfluxDB 1.x queries, as far as writers need them",
    description:
      "Answers `CREATE DATABASE …` (which Telegraf sends before writing; nothing is created) and `SHOW DATABASES` " +
      "(none); any other statement is refused, as this service stores no series. `q` in the query string or a " +
      "form body; statements separated by `;`.",
    parameters: [{ name: "q", in: "query", required: false, schema: { type: "string" } }],
    responses: {
      200: {
        description: "Every statement answered.",
        content: { "application/json": { schema: answered(queryAnswerSchema) } },
      },
      400: {
        description: "A statement other than CREATE DATABASE or SHOW DATABASES, or none.",
        content: influxV1Content,
      },
      401: agentUnauthorizedAnswer(influxV1Content),
    },
  }),
  async (c) => {
    const text = await queryText(c.req.raw, c.req.query("q"));
    const statements = text
      .split(";")
      .map((statement) => statement.trim())
      .filter((statement) => statement !== "");
    if (statements.length === 0)
      return influxV1Error(new ApiError("validation-failed", 'missing required parameter "q"'));
    const results: StatementResult[] = [];
    for (const [index, statement] of statements.entries()) {
      const result = answerStatement(statement, index);
      if (!result) {
        return influxV1Error(
          new ApiError(
            "validation-failed",
            `This service stores no series and answers only CREATE DATABASE and SHOW DATABASES, not ${JSON.stringify(statement.slice(0, 64))}.`,
          ),
        );
      }
      results.push(result);
    }
    return c.json({ results }, 200);
  },
);
