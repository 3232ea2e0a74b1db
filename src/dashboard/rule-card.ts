import { actionButton } from "./action-button";
import { api } from "./api";
import type { RuleReport } from "./api-types";
import { badge, enabledBadge } from "./badges";
import { disclosure } from "./disclosure";
import { h, setAttribute, setText, uniqueId } from "./dom";
import { formatCount, formatMoment } from "./format";
import type { ItemView } from "./keyed-list";
import { statistic } from "./layout";
import type { PageContext } from "./page";
import { metricHref } from "./router";
import { aggregationOf, outputMetricOf } from "./rules";

function targetsOf(rule: RuleReport): string {
  return rule.monitoredTargets
    .map((target) =>
      target.id
        ? `${target.class} ${target.id}`
        : target.type
          ? `${target.class}s of type ${target.type}`
          : `every ${target.class}`,
    )
    .join(", ");
}

/**
 * The rule's document, read when first unfolded (the original's XML, which installs it again as it
 * is) and again at each unfolding, as the rule may have changed.
 */
function ruleDocument(context: PageContext, id: string): HTMLElement {
  const text = h("code", {});
  const read = async () => {
    try {
      setText(text, await api.ruleDocument(id));
    } catch (error) {
      context.report(error);
    }
  };
  return disclosure(["Rule document (XML)"], h("pre", {}, text), { className: "rule-document", onOpen: read }).element;
}

/**
 * One installed rule: what it reads and outputs, how it runs, its document, and the buttons that
 * enable or disable it and delete it.
 */
export function ruleCard(context: PageContext, initial: RuleReport): ItemView<RuleReport> {
  const id = initial.id;
  let current = initial;
  const titleId = uniqueId("rule");
  const state = badge();
  const output = outputMetricOf(initial);
  const action = initial.actions[0];
  const toggle = actionButton("Disable", "button", async () => {
    try {
      const enable = !current.enabled;
      await api.setRuleEnabled(id, enable);
      context.announce(`Rule ${id} ${enable ? "enabled" : "disabled"}.`);
      await context.refresh();
    } catch (error) {
      context.report(error);
    }
  });

  const remove = actionButton("Delete", "button button-danger", async () => {
    const outcome = output ? ` Its output metric ${output} stays, without its observers.` : "";
    if (!window.confirm(`Delete the rule ${id}?${outcome}`)) return;
    try {
      await api.deleteRule(id);
      context.announce(`Rule ${id} deleted.`);
      await context.refresh();
    } catch (error) {
      context.report(error);
    }
  });
  setAttribute(remove, "aria-label", `Delete rule ${id}`);

  const stats = {
    windows: statistic("Windows evaluated"),
    read: statistic("Data read"),
    emitted: statistic("Data emitted"),
    late: statistic("Late data"),
    evaluated: statistic("Last evaluation"),
  };
  const lastError = h("span", {});
  const reads = initial.collectedMetric.metricName;
  const writes = output
    ? h("a", { href: metricHref(output) }, output)
    : h("span", {}, action ? `${action.name} ${action.parameters.url ?? ""}`.trim() : "nothing");

  const element = h(
    "article",
    { class: "card rule-card", "aria-labelledby": titleId },
    h(
      "div",
      { class: "card-head" },
      h(
        "div",
        { class: "card-title" },
        h("h3", { id: titleId }, id),
        initial.label ? h("p", { class: "muted" }, initial.label) : undefined,
      ),
      h("div", { class: "badges" }, state.element),
    ),
    h(
      "p",
      { class: "rule-flow" },
      h("span", { class: "label" }, "Reads"),
      h("a", { href: metricHref(reads) }, reads),
      h("span", { class: "flow-arrow", "aria-hidden": "true" }, "→"),
      h("span", { class: "label" }, output ? "Outputs" : "Action"),
      writes,
    ),
    h(
      "p",
      { class: "rule-how" },
      `${aggregationOf(initial)}, every ${initial.timeStep} s over ${initial.timeWindow} s windows`,
      initial.condition ? `, when ${initial.condition}` : "",
      `. Targets: ${targetsOf(initial)}.`,
    ),
    h("dl", { class: "stats", "aria-live": "polite" }, ...Object.values(stats).map((stat) => stat.element)),
    h("p", { class: "last-error" }, h("span", { class: "label" }, "Last error"), lastError),
    ruleDocument(context, id),
    h("div", { class: "card-actions" }, toggle, remove),
  );

  return {
    element,
    update(rule) {
      current = rule;
      state.set(...enabledBadge(rule.enabled));
      const verb = rule.enabled ? "Disable" : "Enable";
      setText(toggle, verb);
      setAttribute(toggle, "aria-label", `${verb} rule ${id}`);
      setText(stats.windows.value, formatCount(rule.status.windowsEvaluated));
      setText(stats.read.value, formatCount(rule.status.dataRead));
      setText(stats.emitted.value, formatCount(rule.status.dataEmitted));
      setText(stats.late.value, formatCount(rule.status.dataLate));
      setText(stats.evaluated.value, formatMoment(rule.status.lastEvaluationAt));
      setText(lastError, rule.status.lastError ?? "None");
      setAttribute(lastError, "class", rule.status.lastError ? "error-text" : "muted");
    },
  };
}
