/*
 * What both local launchers (and the tests that run the Worker as they do) give the runtime instead
 * of wrangler.toml's Worker: the local entry module around it (src/local/), and the Durable Object
 * binding of its intake journal. A deployment bundles neither.
 */

/** The local entry, from the project's root. */
export const localEntryModule = "src/local/local-entry.ts";

/** The Durable Object class of the intake journal and its binding, as the local entry names them. */
export const journalBinding = { name: "INTAKE_JOURNAL_SHARD", className: "IntakeJournal" } as const;

/** The journal's binding as Miniflare takes Durable Objects: SQLite storage, as every class of the Worker. */
export const localDurableObjects = {
  [journalBinding.name]: { className: journalBinding.className, useSQLite: true },
} as const;
