import { drainProgress, intakeMessagesWritten, startDraining } from "./drain";
import { replayJournal } from "./journal/journal-client";
import type { LocalEnv } from "./local-env";

const encoder = new TextEncoder();

async function sameToken(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all(
    [presented, expected].map((token) => crypto.subtle.digest("SHA-256", encoder.encode(token))),
  );
  return crypto.subtle.timingSafeEqual(a!, b!);
}

/** The launcher's controls, by method and path. */
const controls: Record<string, (env: LocalEnv) => Promise<unknown>> = {
  "POST /_local/drain": async () => {
    startDraining();
    return drainProgress();
  },
  "GET /_local/drain": async () => drainProgress(),
  "POST /_local/journal/replay": async (env) => {
    const replayed = await replayJournal(env);
    intakeMessagesWritten(replayed);
    return { replayed };
  },
};

/**
 * The local launcher's answer to `request`, if it is one of its controls: `/_local/drain`, how it
 * stops the service without losing data, and `/_local/journal/replay`, how at start it has the
 * intake messages a crash left unconsumed sent again. Only when the launcher gave the Worker a
 * LOCAL_CONTROL_TOKEN, and to a request carrying it; anything else goes to the Worker, which tells
 * it the route does not exist. Not part of the API.
 */
export async function localControlAnswer(request: Request, env: LocalEnv): Promise<Response | undefined> {
  const control = controls[`${request.method} ${new URL(request.url).pathname}`];
  const expected = env.LOCAL_CONTROL_TOKEN ?? "";
  const presented = request.headers.get("x-local-control-token");
  if (control === undefined || expected === "" || presented === null || !(await sameToken(presented, expected))) {
    return undefined;
  }
  return Response.json(await control(env));
}
