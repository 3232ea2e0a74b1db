import { replayIntakeJournal } from "./journal-replay.ts";
import { launch, randomToken, runLauncher } from "./launch.ts";
import { onStopSignal } from "./stop-signals.ts";
import { startWorkerProcess } from "./worker-process.ts";

/*
 * `npm run dev`: as `npm start`, but the Worker runs under `wrangler dev`, which rebuilds and
 * reloads it when a source file changes. wrangler dev is a child of this process and dies with
 * it; it gets the terminal's Ctrl-C itself and stops at once, without draining. What its in-memory
 * queue held then is in the intake journal, which the launcher has replayed at the next start.
 */
runLauncher(async () => {
  // Guards the local entry's control routes (src/local/); only the journal replay is called here. A --var, it
  // shows in the process list to this machine's users, as every var of wrangler dev does.
  const controlToken = randomToken();
  const { relay, worker } = await launch(process.env, ({ port, stateDir, bindings }) =>
    startWorkerProcess({
      port,
      persistTo: stateDir,
      vars: { ...bindings, LOCAL_CONTROL_TOKEN: controlToken },
      useDevVars: true,
    }),
  );
  await replayIntakeJournal(worker.url, controlToken, console.error);
  console.log(`tower-edge (wrangler dev) listening on ${worker.url} (Ctrl-C stops it)`);

  let stopping = false;
  onStopSignal(async () => {
    stopping = true;
    await worker.stop();
    await relay.stop();
  });
  // wrangler dev ending by itself ends the launcher as well, rather than leaving a relay alone.
  const code = await worker.exited;
  if (stopping) return;
  console.error(`launcher: wrangler dev exited (${code}); stopping the relay`);
  await relay.stop();
  process.exit(code === 0 ? 0 : 1);
});
