import { h, setAttribute, svg } from "./dom";
import { formatCount } from "./format";

const barWidth = 7;
const gap = 2;
const height = 22;

/**
 * A metric's data per minute as small bars, oldest first (the last bar is the current minute),
 * scaled to the busiest minute shown. The bars are kept and resized, never redrawn.
 */
export function rateBars(): { element: HTMLElement; update(perMinute: readonly number[] | undefined): void } {
  const bars: SVGRectElement[] = [];
  const picture = svg("svg", { class: "rate-bars", height, role: "img" });
  const missing = h("span", { class: "muted" }, "—");
  const element = h("span", { class: "rate" }, picture, missing);
  return {
    element,
    update(perMinute) {
      picture.style.display = perMinute ? "" : "none";
      missing.hidden = perMinute !== undefined;
      if (!perMinute) return;
      while (bars.length < perMinute.length) {
        const bar = svg("rect", { x: bars.length * (barWidth + gap), width: barWidth, rx: 1.5 });
        bars.push(bar);
        picture.append(bar);
      }
      setAttribute(picture, "width", String(perMinute.length * (barWidth + gap) - gap));
      const busiest = Math.max(1, ...perMinute);
      perMinute.forEach((count, index) => {
        const barHeight = count === 0 ? 1 : Math.max(2, Math.round((count / busiest) * height));
        setAttribute(bars[index]!, "y", String(height - barHeight));
        setAttribute(bars[index]!, "height", String(barHeight));
        setAttribute(bars[index]!, "class", count === 0 ? "rate-bar-empty" : "rate-bar");
      });
      const minutes = perMinute.length;
      setAttribute(
        picture,
        "aria-label",
        `Data per minute over the last ${minutes} minutes, oldest first: ${perMinute.map(formatCount).join(", ")}`,
      );
    },
  };
}
