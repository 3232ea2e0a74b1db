/**
 * At start, before the launcher says it listens: asks the Worker to send again the intake messages
 * its journal still holds, those a crash left unconsumed (the local queue is held in memory). The
 * route is the Worker's local control API, guarded by the token the launcher gave it as
 * LOCAL_CONTROL_TOKEN. Never throws: a replay that fails leaves the journal as it was, for the next
 * start, and the service runs meanwhile.
 */
export async function replayIntakeJournal(url: string, token: string, log: (line: string) => void): Promise<void> {
  try {
    const response = await fetch(`${url}/_local/journal/replay`, {
      method: "POST",
      headers: { "x-local-control-token": token },
    });
    if (!response.ok) throw new Error(`POST /_local/journal/replay answered ${response.status}`);
    const { replayed } = (await response.json()) as { replayed: number };
    if (replayed > 0) log(`launcher: sent again ${replayed} intake messages not consumed before the last stop`);
  } catch (error) {
    log(`launcher: could not replay the intake journal, it is kept for the next start: ${(error as Error).message}`);
  }
}
