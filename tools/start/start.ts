import { type DrainState, drainWorker } from "./drain.ts";
import { replayIntakeJournal } from "./journal-replay.ts";
import { launch, randomToken, runLauncher, type WorkerSettings } from "./launch.ts";
import { startLocalWorker } from "./local-worker.ts";
import { queueStallMs, queueWatchIntervalMs, readQueueProgress, watchQueue } from "./queue-watchdog.ts";
import { onStopSignal } from "./stop-signals.ts";

/*
 * `npm start`: the whole service on this machine as one process tree — the Worker in workerd under
 * Miniflare, driven from this process, and the relay as a child process; both die with it. Local
 * data stay on disk in .wrangler/state (TOWER_STATE_DIR), shared with `npm run dev`. Settings:
 * README, "Configuration".
 */
runLauncher(async () => {
  // Guards the Worker's local control routes, which the launcher calls to replay its intake journal
  // at start, to watch its queue, and to drain it before stopping. Set after .dev.vars, so that
  // nothing there can break them.
  const controlToken = randomToken();
  const startWorker = ({ port, stateDir, bindings, consoleLevel }: WorkerSettings, build = true) =>
    startLocalWorker({
      port,
      stateDir,
      bindings: { ...bindings, LOCAL_CONTROL_TOKEN: controlToken },
      verbose: true,
      consoleLevel,
      build,
    });
  const launched = await launch(process.env, startWorker);
  const { relay, settings } = launched;
  let { worker } = launched;
  // What a crash left unconsumed goes to the queue again before clients are told the service is up.
  await replayIntakeJournal(worker.url, controlToken, console.error);
  console.log(`tower-edge listening on ${worker.url} (Ctrl-C stops it)`);

  const restartWorker = async ({ intakeMessagesInFlight }: DrainState) => {
    const journaled = settings.bindings.INTAKE_JOURNAL !== "false";
    console.error(
      `launcher: the local queue has started no consumer batch for ${queueStallMs / 1000} s although intake ` +
        `messages were sent to it since its last one (${intakeMessagesInFlight} unacknowledged): restarting the Worker` +
        (journaled ? "; its intake journal sends them again" : "; INTAKE_JOURNAL is off, so they are lost"),
    );
    await worker.dispose();
    worker = await startWorker(settings, false);
    await replayIntakeJournal(worker.url, controlToken, console.error);
    console.error(`launcher: the Worker listens again on ${worker.url}`);
  };
  const watchdog = watchQueue({
    read: () => readQueueProgress(worker.url, controlToken),
    onStall: (progress) =>
      restartWorker(progress).catch(async (error: unknown) => {
        console.error(`launcher: could not restart the Worker, stopping: ${(error as Error).message}`);
        await relay.stop();
        process.exit(1);
      }),
    intervalMs: queueWatchIntervalMs,
    stallMs: queueStallMs,
  });

  onStopSignal(async () => {
    await watchdog.stop();
    // What the Worker accepted reaches the observers or the durable backlog; its TCP and UDP
    // deliveries still need the relay meanwhile.
    await drainWorker(worker.url, controlToken, { timeoutMs: 30_000, pollIntervalMs: 100, log: console.error });
    await worker.dispose();
    await relay.stop();
  });
});
