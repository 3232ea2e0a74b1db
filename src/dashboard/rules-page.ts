import { api } from "./api";
import { unlessGone } from "./api-client";
import type { RuleReport } from "./api-types";
import { h } from "./dom";
import { keyedList } from "./keyed-list";
import { pageHeader, section } from "./layout";
import type { Page, PageContext } from "./page";
import { ruleCard } from "./rule-card";
import { ruleUpload } from "./rule-upload";

/**
 * `#/rules`: every installed rule with its status and document, enable, disable and delete, and the
 * installation of a rule document, from a file or pasted.
 */
export function rulesPage(context: PageContext): Page {
  const list = h("div", { class: "rule-list" });
  const noRules = h("p", { class: "empty-note" }, "No rules yet: install a rule document below.");
  const cards = keyedList<RuleReport>(
    list,
    (rule) => rule.id,
    (rule) => ruleCard(context, rule),
  );
  const element = h(
    "div",
    { class: "page" },
    pageHeader(
      "Rules",
      h(
        "p",
        { class: "page-meta muted" },
        "Monitoring rules turn a metric's data into another metric, window by window.",
      ),
    ),
    section("Installed rules", list, noRules),
    section("Install a rule document", ruleUpload(context)),
  );
  return {
    title: "Rules",
    element,
    async refresh() {
      const { monitoringRules } = await api.rules();
      const reports = await Promise.all(monitoringRules.map((rule) => unlessGone(api.rule(rule.id))));
      const present = reports.filter((report) => report !== undefined);
      cards.update(present);
      noRules.hidden = present.length > 0;
    },
  };
}
