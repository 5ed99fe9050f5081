// A server-drawn chart, drawn at several widths up to its own; CSS container
// queries show the drawing made for the room the figure has, so its text is
// never scaled down much below its size (a phone gets a chart drawn for a
// phone, not a desktop chart shrunk to 3 px text). No client script.

/** The widths a chart is drawn at; the CSS in globals.css switches between them at these widths. */
export const CHART_WIDTHS = [320, 480, 640, 760, 1100] as const;
export type ChartWidth = (typeof CHART_WIDTHS)[number];

export function ChartFigure({ draw, width, labelledBy }: {
  /** The chart's SVG at `width`; `suffix` keeps the ids of each drawing apart. */
  draw: (width: number, suffix: string) => string;
  /** The widest drawing, used wherever there is room for it. */
  width: ChartWidth;
  labelledBy?: string;
}) {
  const widths = CHART_WIDTHS.filter((w) => w <= width);
  return (
    <figure className="chart" aria-labelledby={labelledBy}>
      {widths.map((w) => (
        <div key={w} className={w === width ? `cw cw-${w} cw-max` : `cw cw-${w}`} dangerouslySetInnerHTML={{ __html: draw(w, w === width ? "" : `-${w}`) }} />
      ))}
    </figure>
  );
}
