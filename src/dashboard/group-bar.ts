import { h, setAttribute, setText } from "./dom";
import { formatCount } from "./format";
import { keyedList } from "./keyed-list";
import type { NameGroup } from "./name-groups";

/** How many groups the bar offers: the largest. */
const groupsOffered = 12;

/**
 * Buttons that narrow the metrics to a group of names (`node_*`), each with its count, and one for
 * all of them; the chosen one is pressed.
 */
export function groupBar(onChoose: (prefix: string | undefined) => void): {
  element: HTMLElement;
  update(groups: readonly NameGroup[], total: number, chosen: string | undefined): void;
} {
  const list = h("div", { class: "group-bar", role: "group", "aria-label": "Metric groups" });
  const all = h("button", { type: "button", class: "group-button" });
  all.addEventListener("click", () => onChoose(undefined));
  const groups = h("span", { class: "group-buttons" });
  list.append(all, groups);
  let chosenPrefix: string | undefined;
  const buttons = keyedList<NameGroup>(
    groups,
    (group) => group.prefix,
    (group) => {
      const button = h("button", { type: "button", class: "group-button" });
      button.addEventListener("click", () => onChoose(group.prefix));
      return {
        element: button,
        update(next) {
          setText(button, `${next.prefix}* ${formatCount(next.count)}`);
          setAttribute(button, "aria-pressed", String(next.prefix === chosenPrefix));
        },
      };
    },
  );
  return {
    element: list,
    update(next, total, chosen) {
      chosenPrefix = chosen;
      setText(all, `All ${formatCount(total)}`);
      setAttribute(all, "aria-pressed", String(chosen === undefined));
      const offered = next.slice(0, groupsOffered);
      // The chosen group stays offered, however small.
      const chosenGroup = next.find((group) => group.prefix === chosen);
      buttons.update(chosenGroup && !offered.includes(chosenGroup) ? [...offered, chosenGroup] : offered);
      list.hidden = next.length === 0;
    },
  };
}
