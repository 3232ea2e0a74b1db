import type { DeliveryStatus, ObserverState } from "./api-types";
import { h, setAttribute, setText } from "./dom";

/*
 * States and health as coloured badges that say what they mean in words: the colour only repeats
 * the text, for those who see it.
 */

export type Tone = "ok" | "warn" | "danger" | "neutral" | "info";

export interface Badge {
  readonly element: HTMLElement;
  set(text: string, tone: Tone): void;
}

export function badge(text = "", tone: Tone = "neutral"): Badge {
  const label = h("span", {}, text);
  const element = h(
    "span",
    { class: `badge badge-${tone}` },
    h("span", { class: "badge-dot", "aria-hidden": "true" }),
    label,
  );
  return {
    element,
    set(next, nextTone) {
      setText(label, next);
      setAttribute(element, "class", `badge badge-${nextTone}`);
    },
  };
}

const stateTones: Record<ObserverState, Tone> = { active: "ok", paused: "neutral", disabled: "danger" };

export function observerStateBadge(state: ObserverState): [string, Tone] {
  return [state[0]!.toUpperCase() + state.slice(1), stateTones[state]];
}

/**
 * How deliveries go, from the status alone: failing, catching up, healthy, or nothing yet. Data sent
 * to a UDP observer prove nothing about its health, which nothing acknowledges: they are "sent".
 */
export function observerHealth(status: DeliveryStatus): [string, Tone] {
  const failedLast =
    status.lastFailureAt !== null && (status.lastSuccessAt === null || status.lastFailureAt > status.lastSuccessAt);
  if (failedLast) return ["Failing", "danger"];
  if (status.backlog > 0) return ["Backlog", "warn"];
  if (status.dead > 0) return ["Dead data", "warn"];
  if (status.delivered === 0) return ["No data yet", "neutral"];
  if (status.acknowledgement === "sent-unacknowledged") return ["Sent (no acknowledgement possible)", "info"];
  return ["Healthy", "ok"];
}

export function enabledBadge(enabled: boolean): [string, Tone] {
  return enabled ? ["Enabled", "ok"] : ["Disabled", "neutral"];
}
