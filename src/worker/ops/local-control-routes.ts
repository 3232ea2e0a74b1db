import { Hono } from "hono";
import { ApiError } from "../../shared/problems";
import type { AppEnv } from "../http/app-env";
import { replayJournal } from "../intake/journal/journal-client";
import { drainProgress, startDraining } from "./drain";

const encoder = new TextEncoder();

async function sameToken(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all(
    [presented, expected].map((token) => crypto.subtle.digest("SHA-256", encoder.encode(token))),
  );
  return crypto.subtle.timingSafeEqual(a!, b!);
}

/**
 * `/_local/drain`: how the local launcher stops the service without losing data; `/_local/journal/replay`:
 * how, at start, it has the intake messages a crash left unconsumed sent again. Served only when
 * the launcher gave the Worker a LOCAL_CONTROL_TOKEN, and only to a request carrying it; anything
 * else is told the route does not exist. Not part of the API.
 */
export const localControlRoutes = new Hono<AppEnv>().use(async (c, next) => {
  const expected = c.get("config").LOCAL_CONTROL_TOKEN;
  const presented = c.req.header("x-local-control-token");
  if (expected === "" || presented === undefined || !(await sameToken(presented, expected))) {
    throw ApiError.notFound(`No route matches ${c.req.path}.`);
  }
  await next();
});

localControlRoutes
  .post("/drain", (c) => {
    startDraining();
    return c.json(drainProgress());
  })
  .get("/drain", (c) => c.json(drainProgress()))
  .post("/journal/replay", async (c) => c.json({ replayed: await replayJournal(c.env) }));
