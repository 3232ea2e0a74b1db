import { type Context, Hono } from "hono";
import { accepts } from "hono/accepts";
import { describeRoute } from "hono-openapi";
import type { z } from "zod";
import { jsonBody } from "../../shared/http/json-body";
import { parseJsonText, readBodyText } from "../../shared/http/json-text";
import { ApiError, type FieldProblem, zodProblems } from "../../shared/problems";
import { answered, emptyAnswer, jsonAnswer, problemAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { pathParams, queryParams } from "../http/path-params";
import { metricStub } from "../metrics/metric-object";
import { type InstalledRule, rulesDocumentSchema } from "./document/rule-schema";
import { readRulesXml } from "./document/rules-xml-reader";
import { writeRulesXml } from "./document/rules-xml-writer";
import { unwrappedRulesProblem } from "./document/unwrapped-rules";
import { compileRule, restCallMetric } from "./evaluation/compile-rule";
import { ruleStub } from "./rule-object";
import { ruleRegistry } from "./rule-registry";
import {
  enabledQuerySchema,
  installedRulesSchema,
  type RuleReport,
  ruleChangeSchema,
  ruleIdParams,
  ruleReportSchema,
} from "./rule-view-schema";

const notInstalled = "nothing was installed";

/** Zod's problems name no rule; a client fixing a long document wants to know which one. */
function naming(problems: FieldProblem[], document: unknown): FieldProblem[] {
  const rules = (document as { monitoringRules?: unknown } | null)?.monitoringRules;
  return problems.map((problem) => {
    const index = /^\/monitoringRules\/(\d+)/.exec(problem.path)?.[1];
    const id = Array.isArray(rules) && index !== undefined ? (rules[Number(index)] as { id?: unknown })?.id : undefined;
    return typeof id === "string" ? { ...problem, message: `Rule "${id}": ${problem.message}` } : problem;
  });
}

/**
 * The body as a document in the JSON form: an XML document (whatever its Content-Type says) is
 * read into it first. A body that starts as neither (an empty one, as curl sends for a file it
 * could not open) is refused as such, not as broken JSON.
 */
async function readDocument(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  const start = text.replace(/^\uFEFF/, "").trimStart()[0];
  if (start === "{" || start === "[") return parseJsonText(text);
  if (start !== "<") {
    const body = start === undefined ? "The body is empty" : `The body starts with ${JSON.stringify(start)}`;
    throw new ApiError(
      "validation-failed",
      `${body}: expected a rule document in XML (<monitoringRules>…) or JSON ({"monitoringRules":[…]}); ${notInstalled}.`,
    );
  }
  const read = readRulesXml(text);
  if (!read.ok)
    throw ApiError.validation(read.problems, `The XML is not a monitoring-rules document; ${notInstalled}.`);
  return read.document;
}

function prefersJson(c: Context): boolean {
  return (
    accepts(c, { header: "Accept", supports: ["application/xml", "application/json"], default: "application/xml" }) ===
    "application/json"
  );
}

function xml(c: Context, rules: readonly InstalledRule[]): Response {
  return c.body(writeRulesXml(rules), 200, { "content-type": "application/xml; charset=utf-8" });
}

async function reportOf(env: Env, rule: InstalledRule): Promise<RuleReport> {
  const status = await ruleStub(env, rule.id).status();
  if (!status) throw ApiError.notFound(`No rule has the id "${rule.id}".`);
  // A RestCall rule's calls are the one observer of its calls metric.
  const calls =
    rule.actions[0]?.name === "RestCall"
      ? (await metricStub(env, restCallMetric(rule.id)).healthReport())?.observers[0]?.status
      : undefined;
  return { ...rule, status, ...(calls ? { calls } : {}) };
}

async function installedRule(env: Env, id: string): Promise<InstalledRule> {
  const rule = await ruleRegistry(env).get(id);
  if (!rule) throw ApiError.notFound(`No rule has the id "${id}".`);
  return rule;
}

const xmlOrJson = (description: string, schema: z.ZodType) => ({
  description,
  content: {
    "application/xml": { schema: { type: "string" as const, description: "A <monitoringRules> document." } },
    "application/json": { schema: answered(schema) },
  },
});

const unknownRule = problemAnswer("No rule has that id (not-found).");

/** /monitoring-rules: the original's rule documents, installed all or nothing, and each rule's state. */
export const ruleRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describeRoute({
      tags: ["Monitoring rules"],
      summary: "Install the rules of a document",
      description:
        "An XML <monitoringRules> document of the original (any Content-Type: a body starting with < is XML) " +
        "or the same structure in JSON. Every rule is installed, or none.",
      requestBody: {
        required: true,
        content: {
          "application/xml": { schema: { type: "string", description: "A <monitoringRules> document." } },
          "application/json": { schema: answered(rulesDocumentSchema) },
        },
      },
      responses: {
        204: emptyAnswer("Every rule is installed."),
        400: problemAnswer(
          `The document has problems, each listed with its rule and location, or is rules without the document ` +
            `around them (one problem: wrap them as {"monitoringRules": […]}); ${notInstalled}.`,
        ),
      },
    }),
    async (c) => {
      const document = await readDocument(c.req.raw);
      const unwrapped = unwrappedRulesProblem(document);
      if (unwrapped) throw ApiError.validation([unwrapped], `The body is not a rule document; ${notInstalled}.`);
      const parsed = rulesDocumentSchema.safeParse(document);
      if (!parsed.success) {
        throw ApiError.validation(
          naming(zodProblems(parsed.error), document),
          `The document has problems; ${notInstalled}.`,
        );
      }
      const rules = parsed.data.monitoringRules;
      const config = c.get("config");
      const problems = rules.flatMap((rule, index) => {
        const compiled = compileRule(rule, ["monitoringRules", index], config);
        return compiled.ok ? [] : compiled.problems;
      });
      const installation =
        problems.length > 0 ? { ok: false as const, problems } : await ruleRegistry(c.env).install(rules);
      if (!installation.ok)
        throw ApiError.validation(installation.problems, `The rules have problems; ${notInstalled}.`);
      return c.body(null, 204);
    },
  )
  .get(
    "/",
    describeRoute({
      tags: ["Monitoring rules"],
      summary: "Every rule",
      description: "XML unless the Accept header prefers application/json.",
      responses: { 200: xmlOrJson("The installed rules with their enabled state.", installedRulesSchema) },
    }),
    async (c) => {
      const rules = await ruleRegistry(c.env).list();
      return prefersJson(c) ? c.json({ monitoringRules: rules }) : xml(c, rules);
    },
  )
  .get(
    "/:id",
    describeRoute({
      tags: ["Monitoring rules"],
      summary: "One rule and its status, or the original's enable/disable",
      description:
        "With ?enabled=true|false, enables or disables the rule (204). Otherwise the rule: XML unless Accept " +
        "prefers application/json, which also carries its status.",
      responses: {
        200: xmlOrJson("The rule (and in JSON its status).", ruleReportSchema),
        204: emptyAnswer("Enabled or disabled."),
        400: problemAnswer("The query is not valid (validation-failed)."),
        404: unknownRule,
      },
    }),
    pathParams(ruleIdParams),
    queryParams(enabledQuerySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const { enabled } = c.req.valid("query");
      if (enabled !== undefined) {
        const changed = await ruleRegistry(c.env).setEnabled(id, enabled === "true");
        if (!changed) throw ApiError.notFound(`No rule has the id "${id}".`);
        return c.body(null, 204);
      }
      const rule = await installedRule(c.env, id);
      return prefersJson(c) ? c.json(await reportOf(c.env, rule)) : xml(c, [rule]);
    },
  )
  .patch(
    "/:id",
    describeRoute({
      tags: ["Monitoring rules"],
      summary: "Enable or disable a rule",
      description: "A disabled rule keeps nothing and emits nothing; enabled again, it starts with empty windows.",
      responses: {
        200: jsonAnswer("The rule as it is now, with its status (as GET answers it in JSON).", ruleReportSchema),
        400: problemAnswer('The body is not {"enabled": true|false} (validation-failed).'),
        404: unknownRule,
      },
    }),
    pathParams(ruleIdParams),
    jsonBody(ruleChangeSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const rule = await ruleRegistry(c.env).setEnabled(id, c.req.valid("json").enabled);
      if (!rule) throw ApiError.notFound(`No rule has the id "${id}".`);
      return c.json(await reportOf(c.env, rule));
    },
  )
  .delete(
    "/:id",
    describeRoute({
      tags: ["Monitoring rules"],
      summary: "Remove a rule",
      description:
        "The rule's state goes, and so do the observers of its output metric; the metric stays, as a declared metric.",
      responses: {
        204: emptyAnswer("Removed."),
        400: problemAnswer("The path is not valid UTF-8 (validation-failed)."),
        404: unknownRule,
      },
    }),
    pathParams(ruleIdParams),
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await ruleRegistry(c.env).remove(id))) throw ApiError.notFound(`No rule has the id "${id}".`);
      return c.body(null, 204);
    },
  );
