import { metricCatalogStub } from "../metrics/metric-catalog";
import { metricStub } from "../metrics/metric-object";
import { observerAddress } from "../metrics/observer-schema";
import { sleep } from "../metrics/plan-lease";
import { revokeLeasedPlans } from "../summary/plan-epoch-requests";
import type { SelectorEntry } from "../vocabulary/delivery";
import { type SelectorObserverView, selectorObserverStub } from "./selector-observer-object";
import { type SelectorObserverRegistration, type SelectorSpec, specOf, targetOf } from "./selector-observer-schema";

/** How many metrics' objects a registration tells at once. */
const metricsToldAtOnce = 16;

/** A value as JSON with every object's keys sorted, so that equal values give equal text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([left], [right]) => (left < right ? -1 : 1)))
      : item,
  );
}

/** What makes two registrations the same observer: what it follows, its format, protocol and address (not its secret or headers). */
export function selectorIdentity(registration: SelectorObserverRegistration): string {
  const target = targetOf(registration);
  const { match, resources, labels } = specOf(registration);
  return canonicalJson([
    match ?? null,
    resources ?? null,
    labels ?? null,
    target.format,
    target.protocol,
    observerAddress(target),
  ]);
}

function entryOf(id: string, spec: SelectorSpec): SelectorEntry {
  return {
    id,
    ...(spec.match === undefined ? {} : { match: spec.match }),
    ...(spec.resources === undefined ? {} : { resources: spec.resources }),
  };
}

/** Runs `tell` for every name, a few at a time; answers what each answered. */
async function tellMetrics<Answer>(
  names: readonly string[],
  tell: (name: string) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const index = next++;
      answers[index] = await tell(names[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(metricsToldAtOnce, names.length) }, worker));
  return answers;
}

export type SelectorRegistrationResult = { outcome: "created" | "existing"; observer: SelectorObserverView };

/**
 * Registers a selector observer, or finds the one of the same identity. The observer's own object
 * is made first, then the catalog lists it and every metric's object is told: once this returns,
 * each batch of any metric's data names it in its plan (a metric created later learns of it from
 * the catalog as it is listed), so it gets every datum accepted from now on: the plans the metrics
 * leased without it are revoked before it answers (see src/worker/delivery/plan-cache.ts). Telling the metrics is
 * idempotent, and a registration of the same observer again tells them again: a registration that
 * failed half-way is completed by the client's retry.
 */
export async function registerSelectorObserver(
  env: Env,
  registration: SelectorObserverRegistration,
  secret: string | undefined,
): Promise<SelectorRegistrationResult> {
  const catalog = metricCatalogStub(env);
  const identity = selectorIdentity(registration);
  const spec = specOf(registration);
  const existing = await catalog.selectorObserverOf(identity);
  const id = existing ?? crypto.randomUUID();
  const stub = selectorObserverStub(env, id);
  const observer = existing
    ? await stub.registerAgain(secret, registration.headers)
    : await stub.create(id, spec, targetOf(registration), secret);
  if (!observer) throw new Error(`the selector observer ${id} is listed, but its object holds none`);
  const listed = await catalog.addSelectorObserver(entryOf(id, spec), identity);
  if (listed.id !== id) {
    // A registration of the same identity got there first: this one's object goes, the first one answers.
    await stub.remove();
    return registerSelectorObserver(env, registration, secret);
  }
  const entry = entryOf(id, spec);
  const leasesLeftMs = await tellMetrics(listed.names, (name) => metricStub(env, name).keepSelectorObserver(entry));
  await revokeLeasedPlans(
    env,
    listed.names.filter((_, index) => leasesLeftMs[index]! > 0),
    () => sleep(Math.max(0, ...leasesLeftMs)),
  );
  return { outcome: existing ? "existing" : "created", observer };
}

/**
 * Removes a selector observer: unlisted and forgotten by every metric first, then its object with
 * its backlog. Plans leased before still name it, for a while: its object, gone, refuses their data.
 */
export async function removeSelectorObserver(env: Env, id: string): Promise<boolean> {
  const names = await metricCatalogStub(env).removeSelectorObserver(id);
  if (names === null) return false;
  await tellMetrics(names, (name) => metricStub(env, name).forgetSelectorObserver(id));
  await selectorObserverStub(env, id).remove();
  return true;
}
