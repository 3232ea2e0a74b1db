import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { usage } from "../common/usage";
import { jsonAnswer } from "../http/answers";
import type { AppEnv } from "../http/app-env";
import { summaryShardCount } from "./shard-key";
import { readSummary } from "./summary-read";
import { summarySchema } from "./summary-schema";
import { summaryView } from "./summary-view";

/** /summary: the overview's figures in one answer. */
export const summaryRoutes = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    tags: ["Operations"],
    summary: "Every metric and observer with its figures, and the intake's",
    description:
      "What a dashboard's overview needs, in one request whatever the number of metrics and observers: kept in " +
      `${summaryShardCount} shards, written by each consumer batch (one request per shard it touches) and by every ` +
      "change of an observer or a metric, and read from all of them, never from each metric.",
    responses: { 200: jsonAnswer("The summary.", summarySchema) },
  }),
  async (c) => c.json(summaryView(await readSummary(c.env), Date.now(), usage)),
);
