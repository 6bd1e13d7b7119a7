/**
 * BG page chart: meter readings over a range of local days. Each date is one column of width 1
 * on a linear x axis (column i spans [i, i + 1)); a reading sits at its wall-clock time inside
 * its day's column, so readings of one day do not overlap. Model: app/report/bg-range.ts.
 */
import * as Plot from "@observablehq/plot";
import type { BgRangeModel, BgReadingView } from "../bg-range";
import type { IsoDate } from "../day";
import { formatDateClock, formatDayMonth } from "../locale-format";
import { toUnit } from "../../domain/glucose-unit";
import { formatGlucose } from "../units";
import { GLUCOSE_CLASS_COLOR } from "./palette";
import {
  chartWidth,
  finishChart,
  glucoseScale,
  MARGIN_LEFT,
  MARGIN_RIGHT,
  MARK_CLASS,
  maxOf,
  renderPanel,
  targetBandMark,
  type ChartOptions,
} from "./render.server";

export interface BgChartLabels {
  /** y-axis label, naming the unit. */
  readonly glucoseAxis: string;
  /** Tooltip of the target band. */
  readonly targetRange: string;
  /** Unit shown in the readings' tooltips (e.g. "mmol/L"). */
  readonly glucoseUnit: string;
  /** Column label of a date; default the day and the month's short name ("Oct 24", "24 paź"). */
  readonly formatDay?: (date: IsoDate) => string;
}

const BG_RANGE_HEIGHT = 280;
const NARROW_BG_RANGE_HEIGHT = 320;
const DAY_S = 86_400;
/** At most this many date labels (on a narrow chart the fewer); longer ranges label every k-th column. */
const MAX_DATE_LABELS = 15;
const NARROW_MAX_DATE_LABELS = 5;

interface BgRow {
  readonly x: number;
  readonly reading: BgReadingView;
}

function bgRows(model: BgRangeModel): BgRow[] {
  return model.days.flatMap((day, i) =>
    day.readings.map((reading) => ({ x: i + reading.seconds / DAY_S, reading })),
  );
}

/** Column-centre ticks, every k-th date so that at most `maxLabels` show. */
function dateTicks(
  dates: readonly IsoDate[],
  format: (date: IsoDate) => string,
  maxLabels: number,
): { ticks: number[]; labels: Map<number, string> } {
  const every = Math.max(1, Math.ceil(dates.length / maxLabels));
  const ticks: number[] = [];
  const labels = new Map<number, string>();
  dates.forEach((date, i) => {
    if (i % every !== 0) return;
    ticks.push(i + 0.5);
    labels.set(i + 0.5, format(date));
  });
  return { ticks, labels };
}

/** Meter readings of the range, one column per date, dots coloured by class, the target band. */
export function bgRangeChart(
  model: BgRangeModel,
  options: ChartOptions & { labels: BgChartLabels },
): string {
  const { unit, locale, labels } = options;
  const width = chartWidth(options);
  const dates = model.days.map((d) => d.date);
  const columns = Math.max(1, dates.length);
  const rows = bgRows(model);
  const { ticks, labels: tickLabels } = dateTicks(
    dates,
    labels.formatDay ?? ((date: IsoDate) => formatDayMonth(date, locale)),
    options.narrow ? NARROW_MAX_DATE_LABELS : MAX_DATE_LABELS,
  );
  const svg = renderPanel({
    width,
    height: options.height ?? (options.narrow ? NARROW_BG_RANGE_HEIGHT : BG_RANGE_HEIGHT),
    marginLeft: MARGIN_LEFT,
    marginRight: MARGIN_RIGHT,
    marginTop: 24,
    marginBottom: 28,
    x: {
      type: "linear",
      domain: [0, columns],
      ticks,
      tickFormat: (t: number) => tickLabels.get(t) ?? "",
      label: null,
    },
    y: glucoseScale(
      maxOf(rows, (r) => r.reading.mgdl),
      options,
      labels.glucoseAxis,
      { band: model.limits },
    ),
    color: { type: "identity" },
    marks: [
      targetBandMark(model.limits, 0, columns, unit, labels.targetRange),
      // Column boundaries: where one local day ends and the next begins.
      Plot.ruleX(
        Array.from({ length: columns + 1 }, (_, i) => i),
        { stroke: "currentColor", strokeOpacity: 0.1 },
      ),
      Plot.dot(rows, {
        x: "x",
        y: (r: BgRow) => toUnit(r.reading.mgdl, unit),
        r: 3,
        fill: (r: BgRow) => GLUCOSE_CLASS_COLOR[r.reading.class],
        stroke: "white",
        strokeWidth: 0.75,
        title: (r: BgRow) =>
          `${formatDateClock(r.reading.date, r.reading.clock, locale)} ${formatGlucose(r.reading.mgdl, unit, locale)} ${labels.glucoseUnit}`,
        className: MARK_CLASS.meterBg,
      }),
    ],
  });
  return finishChart(svg, options);
}
