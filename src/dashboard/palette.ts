/*
 * Series colours, after Okabe and Ito's palette for colour-blind readers, darkened where needed so
 * that each line stands out from the white plot at a contrast of at least 3:1. Beyond the
 * palette, lines are also dashed, so that no two series look alike.
 */
const colours = ["#0072b2", "#c84f00", "#007a5a", "#a53a7c", "#7a6200", "#3b4a5c", "#5b3fa3"];
const dashes = ["", "6 4", "2 3"];

export interface SeriesStyle {
  colour: string;
  dash: string;
}

export function seriesStyle(index: number): SeriesStyle {
  return {
    colour: colours[index % colours.length]!,
    dash: dashes[Math.floor(index / colours.length) % dashes.length]!,
  };
}
