import { actionButton } from "./action-button";
import { api } from "./api";
import type { Attempt, ObserverReport } from "./api-types";
import { attemptLog } from "./attempt-log";
import { badge, observerHealth, observerStateBadge } from "./badges";
import { h, setAttribute, setText, uniqueId } from "./dom";
import { data, formatCount, formatMoment, observerTarget } from "./format";
import type { ItemView } from "./keyed-list";
import { statistic } from "./layout";
import type { PageContext } from "./page";

export interface ObserverView {
  report: ObserverReport;
  attempts: Attempt[];
}

/**
 * One observer of a metric: where it delivers, its state and health, its delivery counts and last
 * error, its attempt log, and the buttons that pause or resume it, retry its backlog now, replay its
 * dead data or delete it.
 */
export function observerCard(metric: string, context: PageContext, initial: ObserverView): ItemView<ObserverView> {
  const id = initial.report.id;
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
      await api.setObserverState(metric, id, resume ? "active" : "paused");
      return resume ? `Observer ${target} resumed.` : `Observer ${target} paused.`;
    }),
  );
  const retry = actionButton("Retry now", "button", () =>
    run(async () => {
      const backlog = (await api.retryNow(metric, id))?.status.backlog ?? 0;
      return backlog === 0 ? `No data wait for ${target}.` : `Retrying ${data(backlog)} for ${target} now.`;
    }),
  );
  setAttribute(retry, "aria-label", `Retry the backlog of ${target} now`);
  const replay = actionButton("Replay dead data", "button", () =>
    run(async () => {
      const replayed = (await api.replay(metric, id))?.data ?? 0;
      return replayed === 0 ? "No dead data to replay." : `${data(replayed)} put back into the backlog.`;
    }),
  );
  setAttribute(replay, "aria-label", `Replay dead data of ${target}`);
  const remove = actionButton("Delete", "button button-danger", async () => {
    if (!window.confirm(`Delete the observer ${target}? Its backlog and attempt log are deleted with it.`)) return;
    await run(async () => {
      await api.deleteObserver(metric, id);
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
      ),
      h("div", { class: "badges" }, state.element, health.element),
    ),
    h("div", { class: "card-actions" }, toggle, retry, replay, remove),
    h("dl", { class: "stats", "aria-live": "polite" }, ...Object.values(stats).map((stat) => stat.element)),
    h("p", { class: "last-error" }, h("span", { class: "label" }, "Last error"), lastError),
    h("h4", {}, "Attempt log"),
    attempts.element,
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
      attempts.update(view.attempts);
    },
  };
}
