import { launch, runLauncher } from "./launch.ts";
import { onStopSignal } from "./stop-signals.ts";
import { startWorkerProcess } from "./worker-process.ts";

/*
 * `npm run dev`: as `npm start`, but the Worker runs under `wrangler dev`, which rebuilds and
 * reloads it when a source file changes. wrangler dev is a child of this process and dies with
 * it; it gets the terminal's Ctrl-C itself and stops at once, without draining.
 */
runLauncher(async () => {
  const { relay, worker } = await launch(process.env, ({ port, stateDir, bindings }) =>
    startWorkerProcess({ port, persistTo: stateDir, vars: bindings, useDevVars: true }),
  );
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
