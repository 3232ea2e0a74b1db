import { actionButton } from "./action-button";
import { api } from "./api";
import type { Attempt, ObserverReport } from "./api-types";
import { attemptLog } from "./attempt-log";
import { badge, observerHealth, observerStateBadge } from "./badges";
import { disclosure } from "./disclosure";
import { h, setAttribute, setText, uniqueId } from "./dom";
import { data, formatCount, formatMoment, observerTarget } from "./format";
import type { ItemView } from "./keyed-list";
import { statistic } from "./layout";
import type { PageContext } from "./page";

export interface ObserverView {
  report: ObserverReport;
  attempts: Attempt[];
}

/** How an HTTP observer's deliveries go out, in words: signed or not, with which extra headers (never their values). */
function dressingOf(report: ObserverReport): string {
  if (report.protocol !== "HTTP") return "";
  const signing = report.signed ? "Signed (Standard Webhooks)" : "Not signed";
  const names = report.headerNames;
  return `${signing} · ${names.length === 0 ? "no extra headers" : `extra headers: ${names.join(", ")}`}`;
}

/** The latest attempt in a few words, for the closed attempt log. */
function latestAttempt(attempts: readonly Attempt[]): string {
  const [latest] = attempts;
  if (!latest) return "no attempts yet";
  return `latest: ${latest.ok ? "delivered" : "failed"} ${formatMoment(latest.at)}`;
}

/**
 * One observer, of a metric or following selectors, at its API path (`path`): where it delivers, its state and health, how its deliveries go out
 * (signed, extra headers), its delivery counts and last error, its attempt log (folded: most of
 * the time one reads the counts), and the buttons that pause or resume it, retry its backlog now,
 * replay its dead data or delete it. `attemptsOpen` unfolds the attempt log at first.
 */
export function observerCard(
  path: string,
  context: PageContext,
  initial: ObserverView,
  options: { attemptsOpen?: boolean } = {},
): ItemView<ObserverView> {
  const target = observerTarget(initial.report);
  let current = initial;
  const titleId = uniqueId("observer");
  const state = badge();
  const health = badge();

  const run = async (action: () => Promise<string>) => {
    try {
      context.announce(await action());
      await context.refresh();
    } catch (error) {
      context.report(error);
    }
  };

  const toggle = actionButton("Pause", "button", () =>
    run(async () => {
      const resume = current.report.state !== "active";
      await api.setObserverState(path, resume ? "active" : "paused");
      return resume ? `Observer ${target} resumed.` : `Observer ${target} paused.`;
    }),
  );
  const retry = actionButton("Retry now", "button", () =>
    run(async () => {
      const backlog = (await api.retryNow(path))?.status.backlog ?? 0;
      return backlog === 0 ? `No data wait for ${target}.` : `Retrying ${data(backlog)} for ${target} now.`;
    }),
  );
  setAttribute(retry, "aria-label", `Retry the backlog of ${target} now`);
  const replay = actionButton("Replay dead data", "button", () =>
    run(async () => {
      const replayed = (await api.replay(path))?.data ?? 0;
      return replayed === 0 ? "No dead data to replay." : `${data(replayed)} put back into the backlog.`;
    }),
  );
  setAttribute(replay, "aria-label", `Replay dead data of ${target}`);
  const remove = actionButton("Delete", "button button-danger", async () => {
    if (!window.confirm(`Delete the observer ${target}? Its backlog and attempt log are deleted with it.`)) return;
    await run(async () => {
      await api.deleteObserver(path);
      return `Observer ${target} deleted.`;
    });
  });
  setAttribute(remove, "aria-label", `Delete observer ${target}`);

  const stats = {
    delivered: statistic("Delivered"),
    failed: statistic("Failed attempts"),
    backlog: statistic("Backlog"),
    dead: statistic("Dead"),
    dropped: statistic("Dropped"),
    lastSuccess: statistic("Last success"),
    lastFailure: statistic("Last failure"),
    nextAttempt: statistic("Next attempt"),
  };
  const lastError = h("span", {});
  const attempts = attemptLog(target);
  const dressing = h("p", { class: "muted observer-dressing" });
  const attemptsSummary = h("span", { class: "muted" });

  const element = h(
    "article",
    { class: "card observer-card", "aria-labelledby": titleId },
    h(
      "div",
      { class: "card-head" },
      h(
        "div",
        { class: "card-title" },
        h("h3", { id: titleId, class: "observer-target" }, target),
        h("p", { class: "muted" }, `${initial.report.format} over ${initial.report.protocol}`),
        dressing,
      ),
      h("div", { class: "badges" }, state.element, health.element),
    ),
    h("div", { class: "card-actions" }, toggle, retry, replay, remove),
    h("dl", { class: "stats", "aria-live": "polite" }, ...Object.values(stats).map((stat) => stat.element)),
    h("p", { class: "last-error" }, h("span", { class: "label" }, "Last error"), lastError),
    disclosure([h("span", { class: "attempts-title" }, "Attempt log"), " ", attemptsSummary], attempts.element, {
      className: "attempts",
      open: options.attemptsOpen ?? false,
    }).element,
  );

  return {
    element,
    update(view) {
      current = view;
      const { report } = view;
      const { status } = report;
      state.set(...observerStateBadge(report.state));
      health.set(...observerHealth(status));
      const action = report.state === "active" ? "Pause" : "Resume";
      setText(toggle, action);
      setAttribute(toggle, "aria-label", `${action} observer ${target}`);
      // A paused or disabled observer is sent nothing: resuming it is what tries its backlog.
      retry.hidden = report.state !== "active";
      setText(stats.delivered.value, formatCount(status.delivered));
      setText(stats.failed.value, formatCount(status.failed));
      setText(stats.backlog.value, formatCount(status.backlog));
      setText(stats.dead.value, formatCount(status.dead));
      setText(stats.dropped.value, formatCount(status.dropped));
      setText(stats.lastSuccess.value, formatMoment(status.lastSuccessAt));
      setText(stats.lastFailure.value, formatMoment(status.lastFailureAt));
      setText(stats.nextAttempt.value, formatMoment(status.nextAttemptAt));
      setText(lastError, status.lastError ?? "None");
      setAttribute(lastError, "class", status.lastError ? "error-text" : "muted");
      setText(dressing, dressingOf(report));
      dressing.hidden = dressing.textContent === "";
      setText(attemptsSummary, latestAttempt(view.attempts));
      attempts.update(view.attempts);
    },
  };
}
