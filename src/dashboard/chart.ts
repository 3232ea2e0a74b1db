import { h, setAttribute, setText, svg } from "./dom";
import { formatInstant, formatValue } from "./format";
import { keyedList } from "./keyed-list";
import { type SeriesStyle, seriesStyle } from "./palette";
import { timeAxis, valueTicks } from "./scales";

export interface SeriesPoint {
  time: number;
  value: number;
}

/** One line of the chart: a resource's values, in time order. */
export interface Series {
  name: string;
  points: SeriesPoint[];
}

export interface LineChart {
  readonly element: HTMLElement;
  update(series: readonly Series[]): void;
  dispose(): void;
}

/* The plot is drawn at its frame's own size in pixels (the style sheet fixes the height), so that its text keeps its size at any width. */
const margin = { top: 14, right: 20, bottom: 30, left: 64 };
/** Points are marked while there are few enough to tell apart. */
const markedPoints = 240;

interface Extent {
  start: number;
  end: number;
  low: number;
  high: number;
}

function extentOf(series: readonly Series[]): Extent {
  const points = series.flatMap((line) => line.points);
  let start = Math.min(...points.map((point) => point.time));
  let end = Math.max(...points.map((point) => point.time));
  let low = Math.min(...points.map((point) => point.value));
  let high = Math.max(...points.map((point) => point.value));
  if (end - start < 1_000) [start, end] = [start - 5_000, end + 5_000];
  if (high === low) {
    const pad = Math.abs(low) / 10 || 1;
    [low, high] = [low - pad, high + pad];
  }
  return { start, end, low, high };
}

function legendSample(style: SeriesStyle): SVGSVGElement {
  return svg(
    "svg",
    { class: "legend-sample", width: 22, height: 10, "aria-hidden": "true" },
    svg("line", {
      x1: 1,
      y1: 5,
      x2: 21,
      y2: 5,
      stroke: style.colour,
      "stroke-width": 3,
      "stroke-dasharray": style.dash,
    }),
  );
}

/**
 * A line chart of values over time, one line per series, drawn as SVG by hand: time on the x axis
 * (its ticks as round as the span allows, seconds to years), values on the y axis, a legend naming each line with its colour and latest value.
 * The chart keeps its size whatever the data, and redraws only when they changed.
 */
export function lineChart(title: string): LineChart {
  const plot = svg("svg", { class: "chart-plot", role: "img", "aria-label": `${title}: no data yet` });
  const empty = h("p", { class: "chart-empty" }, "No data yet");
  const frame = h("div", { class: "chart-frame" }, plot, empty);
  const legendList = h("ul", { class: "chart-legend" });
  const element = h("figure", { class: "chart" }, frame, h("figcaption", {}, legendList));

  let width = 0;
  let height = 0;
  let series: readonly Series[] = [];
  let drawn = "";

  const legend = keyedList<{ name: string; index: number; latest: string }>(
    legendList,
    (entry) => entry.name,
    (entry) => {
      const sample = h("span", {});
      const latest = h("span", { class: "legend-latest" });
      const item = h("li", {}, sample, h("span", { class: "legend-name" }, entry.name), latest);
      let index = -1;
      return {
        element: item,
        update(next) {
          if (next.index !== index) {
            index = next.index;
            sample.replaceChildren(legendSample(seriesStyle(index)));
          }
          setText(latest, next.latest);
        },
      };
    },
  );

  function draw(): void {
    const signature = JSON.stringify([width, height, series]);
    if (signature === drawn || width === 0 || height === 0) return;
    drawn = signature;
    setAttribute(plot, "width", String(width));
    setAttribute(plot, "height", String(height));
    setAttribute(plot, "viewBox", `0 0 ${width} ${height}`);
    const lines = series.filter((line) => line.points.length > 0);
    empty.hidden = lines.length > 0;
    legend.update(
      lines.map((line, index) => ({
        name: line.name,
        index,
        latest: `latest ${formatValue(line.points.at(-1)!.value)}`,
      })),
    );
    if (lines.length === 0) {
      plot.replaceChildren();
      setAttribute(plot, "aria-label", `${title}: no data yet`);
      return;
    }
    const extent = extentOf(lines);
    const innerWidth = Math.max(width - margin.left - margin.right, 10);
    const innerHeight = height - margin.top - margin.bottom;
    const yTicks = valueTicks(extent.low, extent.high, 5);
    const low = yTicks[0]!;
    const high = yTicks.at(-1)!;
    const x = (time: number) => margin.left + ((time - extent.start) / (extent.end - extent.start)) * innerWidth;
    const y = (value: number) => margin.top + innerHeight - ((value - low) / (high - low)) * innerHeight;
    const round = (coordinate: number) => Math.round(coordinate * 10) / 10;

    const grid = svg(
      "g",
      { class: "chart-grid" },
      ...yTicks.map((tick) =>
        svg(
          "g",
          {},
          svg("line", { x1: margin.left, x2: margin.left + innerWidth, y1: round(y(tick)), y2: round(y(tick)) }),
          svg(
            "text",
            { x: margin.left - 8, y: round(y(tick)), "text-anchor": "end", "dominant-baseline": "middle" },
            formatValue(tick),
          ),
        ),
      ),
    );
    const time = timeAxis(extent.start, extent.end, innerWidth);
    const bottom = margin.top + innerHeight;
    const axis = svg(
      "g",
      { class: "chart-axis" },
      svg("line", { x1: margin.left, x2: margin.left + innerWidth, y1: bottom, y2: bottom }),
      ...time.ticks.map((tick) =>
        svg(
          "g",
          {},
          svg("line", { x1: round(x(tick)), x2: round(x(tick)), y1: bottom, y2: bottom + 5 }),
          svg("text", { x: round(x(tick)), y: bottom + 19, "text-anchor": "middle" }, time.label(tick)),
        ),
      ),
    );
    const marked = lines.reduce((total, line) => total + line.points.length, 0) <= markedPoints;
    const paths = lines.map((line, index) => {
      const style = seriesStyle(index);
      const d = line.points
        .map((point, at) => `${at === 0 ? "M" : "L"}${round(x(point.time))},${round(y(point.value))}`)
        .join(" ");
      const markers =
        marked || line.points.length === 1
          ? line.points.map((point) => svg("circle", { cx: round(x(point.time)), cy: round(y(point.value)), r: 3 }))
          : [];
      return svg(
        "g",
        { class: "chart-series", fill: style.colour, stroke: style.colour },
        svg("path", { d, fill: "none", "stroke-width": 2, "stroke-dasharray": style.dash, "data-series": line.name }),
        ...markers,
      );
    });
    plot.replaceChildren(grid, axis, ...paths);
    const count = lines.reduce((total, line) => total + line.points.length, 0);
    const resources = lines.length === 1 ? "1 resource" : `${lines.length} resources`;
    setAttribute(
      plot,
      "aria-label",
      `${title}: ${count} values of ${resources} from ${formatInstant(extent.start)} to ${formatInstant(extent.end)}`,
    );
  }

  const resizes = new ResizeObserver((entries) => {
    const box = entries[0]?.contentRect;
    width = Math.floor(box?.width ?? 0);
    height = Math.floor(box?.height ?? 0);
    draw();
  });
  resizes.observe(frame);

  return {
    element,
    update(next) {
      series = next;
      draw();
    },
    dispose() {
      resizes.disconnect();
    },
  };
}
