import { drainWorker } from "./drain.ts";
import { replayIntakeJournal } from "./journal-replay.ts";
import { launch, randomToken, runLauncher, type WorkerSettings } from "./launch.ts";
import { startLocalWorker } from "./local-worker.ts";
import { onStopSignal } from "./stop-signals.ts";

/*
 * `npm start`: the whole service on this machine as one process tree — the Worker in workerd under
 * Miniflare, driven from this process, and the relay as a child process; both die with it. Local
 * data stay on disk in .wrangler/state (TOWER_STATE_DIR), shared with `npm run dev`. Settings:
 * README, "Configuration".
 */
/**
 * Set by the bench alone (bench/runtime/launched-service.ts), which measures what holds deployed:
 * the Worker without the local entry, so with no intake journal to replay at start or drain at stop.
 */
const asDeployed = process.env.TOWER_BENCH_AS_DEPLOYED === "true";

runLauncher(async () => {
  // Guards the Worker's local control routes, which the launcher calls to replay its intake journal
  // at start and to drain it before stopping. Set after .dev.vars, so that nothing there can break
  // them.
  const controlToken = randomToken();
  const startWorker = ({ port, stateDir, bindings, consoleLevel }: WorkerSettings) =>
    startLocalWorker({
      port,
      stateDir,
      bindings: { ...bindings, LOCAL_CONTROL_TOKEN: controlToken },
      verbose: true,
      consoleLevel,
      asDeployed,
    });
  const { relay, worker } = await launch(process.env, startWorker);
  // What a crash left unconsumed goes to the queue again before clients are told the service is up.
  if (!asDeployed) await replayIntakeJournal(worker.url, controlToken, console.error);
  console.log(`tower-edge listening on ${worker.url} (Ctrl-C stops it)`);

  onStopSignal(async () => {
    // What the Worker accepted reaches the observers or the durable backlog; its TCP and UDP
    // deliveries still need the relay meanwhile.
    if (!asDeployed) {
      await drainWorker(worker.url, controlToken, { timeoutMs: 30_000, pollIntervalMs: 100, log: console.error });
    }
    await worker.dispose();
    await relay.stop();
  });
});
