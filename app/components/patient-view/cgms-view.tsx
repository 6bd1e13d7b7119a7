import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TimeInRanges, TrendLevel } from "~/metrics";
import type { DayNavigation } from "~/services/patient-view.server";
import type { CgmsView as CgmsViewName } from "~/schemas/patient-view";
import { AGP_BANDS } from "~/report/agp-report";
import type { CgmDayModel, CgmOverlayModel } from "~/report/cgm-day";
import { formatDate } from "~/report/locale-format";
import { QUICK_DAYS } from "~/report/quick-ranges";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { formatGlucose, formatNumber, formatQuantity } from "~/report/units";
import type { ViewCharts } from "~/services/view-charts.server";
import * as s from "~/styles/patient-view.css";
import { QuickRangeButtons } from "../quick-ranges";
import { DateNavigator, EmptyDay } from "./date-navigator";
import { viewHref } from "./links";
import { Chart, Stat } from "./parts";

/** The arrow of each trend level (beside its words, which screen readers read instead). */
export const TREND_ARROWS: Record<TrendLevel, string> = {
  rapidlyRising: "⇈",
  rising: "↑",
  slowlyRising: "↗",
  steady: "→",
  slowlyFalling: "↘",
  falling: "↓",
  rapidlyFalling: "⇊",
};

type DayStats = { mean: number | null; sd: number | null; cv: number | null; gmi: number | null };
type OverlayStats = {
  readings: number;
  mean: number | null;
  cv: number | null;
  gmi: number | null;
  activePercent: number | null;
  timeInRanges: TimeInRanges | null;
};
type DayData = {
  view: "day";
  nav: DayNavigation;
  day: Omit<CgmDayModel, "points">;
  stats: DayStats;
};
type OverlayData = {
  view: "overlay";
  nav: DayNavigation;
  overlay: Omit<CgmOverlayModel, "days">;
  stats: OverlayStats;
};
type Props = { base: string; data: DayData | OverlayData; chart: ViewCharts; unit: GlucoseUnit };

/** CGMS: one day's trace with trend and alarm, or the 14-day overlay; ranges and statistics. */
export function CgmsView({ base, data, chart, unit }: Props) {
  const { t, i18n } = useTranslation("views");
  const glucose = useGlucose(unit);
  const caption =
    data.view === "day"
      ? t("cgms.chartCaption", {
          count: data.day.summary?.readingCount ?? 0,
          mean: glucose(data.stats.mean),
        })
      : t("cgms.overlayCaption", {
          from: formatDate(data.overlay.from, i18n.language),
          to: formatDate(data.overlay.to, i18n.language),
          count: data.stats.readings,
          mean: glucose(data.stats.mean),
        });
  const hasData = data.view === "day" ? data.day.hasData : data.overlay.hasData;
  return (
    <section className={s.section} aria-labelledby="cgms-heading">
      <h2 id="cgms-heading">{t("cgms.heading")}</h2>
      <ViewSwitch base={base} current={data.view} date={data.nav.date} />
      <DateNavigator base={base} tab="cgms" view={data.view} nav={data.nav} />
      {data.view === "overlay" ? (
        <Form method="get" className={s.toolbarForm} aria-label={t("range.label")}>
          <input type="hidden" name="tab" value="cgms" />
          <input type="hidden" name="view" value="overlay" />
          <QuickRangeButtons days={QUICK_DAYS.cgmOverlay} />
        </Form>
      ) : null}
      {!hasData ? (
        <EmptyDay base={base} tab="cgms" view={data.view} nav={data.nav} />
      ) : (
        <>
          {data.view === "day" ? <Latest day={data.day} unit={unit} /> : null}
          <Chart chart={chart} caption={caption} />
          {data.view === "day" ? (
            <DayFigures data={data} unit={unit} />
          ) : (
            <OverlayFigures data={data} unit={unit} />
          )}
        </>
      )}
    </section>
  );
}

function ViewSwitch({
  base,
  current,
  date,
}: {
  base: string;
  current: CgmsViewName;
  date: string;
}) {
  const { t } = useTranslation("views");
  return (
    <nav aria-label={t("cgms.views.label")}>
      <ul className={s.tabs}>
        {(["day", "overlay"] as const).map((view) => (
          <li key={view}>
            <Link
              className={s.tab}
              to={viewHref(base, { tab: "cgms", view, date })}
              aria-current={view === current ? "page" : undefined}
            >
              {t(`cgms.views.${view}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function useGlucose(unit: GlucoseUnit) {
  const { t, i18n } = useTranslation("views");
  return (mgdl: number | null) =>
    `${formatGlucose(mgdl, unit, i18n.language)} ${t(`common:units.${unit}`)}`;
}

function Latest({ day, unit }: { day: DayData["day"]; unit: GlucoseUnit }) {
  const { t } = useTranslation("views");
  const glucose = useGlucose(unit);
  if (!day.latest) return null;
  return (
    <dl className={s.stats} data-testid="cgm-latest">
      <Stat label={t("cgms.latest")}>
        <span className={s.glucoseClass[day.latest.class]}>
          {t("cgms.valueAt", { value: glucose(day.latest.mgdl), time: day.latest.clock })}
        </span>
      </Stat>
      <Stat label={t("cgms.trend")}>
        {day.trend ? (
          <>
            <span aria-hidden="true">{TREND_ARROWS[day.trend.level]} </span>
            {t(`cgms.trends.${day.trend.level}`)}
          </>
        ) : (
          t("cgms.trends.unknown")
        )}
      </Stat>
      <Stat label={t("cgms.alarm")}>
        {day.alarm ? t(`cgms.alarms.${day.alarm}`) : t("cgms.alarms.none")}
      </Stat>
    </dl>
  );
}

function RangeBars({ ranges, unit }: { ranges: TimeInRanges; unit: GlucoseUnit }) {
  const { t, i18n } = useTranslation("views");
  const g = (mgdl: number) => formatGlucose(mgdl, unit, i18n.language);
  const label = ({ field, fromMgdl: low, toMgdl: high }: (typeof AGP_BANDS)[number]) =>
    low === null
      ? t(`cgms.bands.${field}`, { value: g(high!) })
      : high === null
        ? t(`cgms.bands.${field}`, { value: g(low) })
        : t(`cgms.bands.${field}`, { low: g(low), high: g(high) });
  return (
    <>
      <h3>{t("cgms.ranges")}</h3>
      <ul className={s.ranges} data-testid="time-in-ranges">
        {AGP_BANDS.map((band) => (
          <li key={band.field} className={s.rangeRow}>
            <span>{label(band)}</span>
            <span className={s.bar} aria-hidden="true">
              <span className={s.barFill[band.key]} style={{ width: `${ranges[band.field]}%` }} />
            </span>
            <span>
              {t("cgms.percent", { value: formatNumber(ranges[band.field], 1, i18n.language) })}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function DayFigures({ data, unit }: { data: DayData; unit: GlucoseUnit }) {
  const { t, i18n } = useTranslation("views");
  const glucose = useGlucose(unit);
  const pct = (value: number | null) =>
    t("cgms.percent", { value: formatNumber(value, 1, i18n.language) });
  const { day, stats } = data;
  return (
    <>
      {day.timeInRanges ? <RangeBars ranges={day.timeInRanges} unit={unit} /> : null}
      {day.goal ? (
        <>
          <h3>
            {t("cgms.goal", {
              low: formatGlucose(day.targetBand.low, unit, i18n.language),
              high: formatGlucose(day.targetBand.high, unit, i18n.language),
              unit: t(`common:units.${unit}`),
            })}
          </h3>
          <dl className={s.stats} data-testid="cgm-goal">
            <Stat label={t("cgms.above")}>{pct(day.goal.abovePercent)}</Stat>
            <Stat label={t("cgms.within")}>{pct(day.goal.withinPercent)}</Stat>
            <Stat label={t("cgms.below")}>{pct(day.goal.belowPercent)}</Stat>
          </dl>
        </>
      ) : null}
      <h3>{t("cgms.stats")}</h3>
      <dl className={s.stats} data-testid="cgm-stats">
        <Stat label={t("cgms.average")}>{glucose(stats.mean)}</Stat>
        <Stat label={t("cgms.sd")}>{glucose(stats.sd)}</Stat>
        <Stat label={t("cgms.cv")}>{pct(stats.cv)}</Stat>
        <Stat label={t("cgms.count")}>{day.summary?.readingCount ?? 0}</Stat>
        {day.summary ? (
          <>
            <Stat label={t("cgms.highest")}>
              {t("cgms.valueAt", {
                value: glucose(day.summary.highest.mgdl),
                time: day.summary.highest.clock,
              })}
            </Stat>
            <Stat label={t("cgms.lowest")}>
              {t("cgms.valueAt", {
                value: glucose(day.summary.lowest.mgdl),
                time: day.summary.lowest.clock,
              })}
            </Stat>
          </>
        ) : null}
      </dl>
    </>
  );
}

function OverlayFigures({ data, unit }: { data: OverlayData; unit: GlucoseUnit }) {
  const { t, i18n } = useTranslation("views");
  const glucose = useGlucose(unit);
  const pct = (value: number | null) =>
    t("cgms.percent", { value: formatNumber(value, 1, i18n.language) });
  const { stats } = data;
  return (
    <>
      <p className={s.note}>
        {t("cgms.overlayTitle", {
          from: formatDate(data.overlay.from, i18n.language),
          to: formatDate(data.overlay.to, i18n.language),
        })}
      </p>
      {stats.timeInRanges ? <RangeBars ranges={stats.timeInRanges} unit={unit} /> : null}
      <h3>{t("cgms.stats")}</h3>
      <dl className={s.stats} data-testid="cgm-stats">
        <Stat label={t("cgms.average")}>{glucose(stats.mean)}</Stat>
        <Stat label={t("cgms.cv")}>{pct(stats.cv)}</Stat>
        <Stat label={t("cgms.gmi")}>{pct(stats.gmi)}</Stat>
        <Stat label={t("cgms.active")}>{pct(stats.activePercent)}</Stat>
        <Stat label={t("cgms.count")}>{formatQuantity(stats.readings, i18n.language)}</Stat>
      </dl>
    </>
  );
}
