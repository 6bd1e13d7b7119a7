import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import type { PumpReport } from "~/report/pump-report";
import { displayDate } from "~/report/day";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { classify, formatGlucose, formatNumber } from "~/report/units";
import * as s from "~/styles/report.css";
import * as st from "~/styles/stack-table.css";
import { Figure, ReportSection } from "./report-page";

/** The pump report as the page gets it: the model without the per-day DAILY models. */
export type PumpReportFigures = Omit<PumpReport, "days">;

const minutes = (ms: number) => Math.round(ms / 60_000);

/** Number and unit formatters of the pump report in the reader's language and glucose unit. */
function usePumpFormat(unit: GlucoseUnit) {
  const { t, i18n } = useTranslation("reports");
  const locale = i18n.language;
  const unitText = t(`common:units.${unit}`);
  const u = t("views:units.u");
  return {
    t,
    locale,
    unitText,
    u,
    uh: t("views:units.uh"),
    g: t("views:units.g"),
    glucose: (mgdl: number | null) => `${formatGlucose(mgdl, unit, locale)} ${unitText}`,
    percent: (value: number | null) => `${formatNumber(value, 1, locale)} %`,
    insulin: (value: number | null) => `${formatNumber(value, 2, locale)} ${u}`,
  };
}

type SectionProps = { report: PumpReportFigures; unit: GlucoseUnit };

const limitsOf = (report: PumpReportFigures) => ({
  low: report.patientInfo.lowLimit,
  high: report.patientInfo.highLimit,
});

/** Glucose statistics and pump totals. */
export function PumpSummary({ report, unit }: SectionProps) {
  const { t, locale, g, glucose, percent, insulin } = usePumpFormat(unit);
  const limits = limitsOf(report);
  return (
    <>
      <ReportSection id="pump-glucose" title={t("pump.glucose")}>
        <dl className={s.figures} data-testid="pump-glucose">
          <Figure label={t("pump.average")}>{glucose(report.sugarTotalCount.mean)}</Figure>
          <Figure label={t("pump.count")}>{report.sugarTotalCount.count}</Figure>
          <Figure
            label={t("pump.high")}
            note={t("pump.values", { count: report.sugarTotalCount.high })}
          >
            {percent(report.sugarTotalCount.highPercent)}
          </Figure>
          <Figure
            label={t("pump.low")}
            note={t("pump.values", { count: report.sugarTotalCount.low })}
          >
            {percent(report.sugarTotalCount.lowPercent)}
          </Figure>
          <Figure
            label={t("pump.targetRange")}
          >{`${formatGlucose(limits.low, unit, locale)}–${glucose(limits.high)}`}</Figure>
        </dl>
      </ReportSection>
      <ReportSection id="pump-totals" title={t("pump.totals")}>
        <dl className={s.figures} data-testid="pump-totals">
          <Figure label={t("pump.total")}>{insulin(report.PumpTotalCount.total)}</Figure>
          <Figure label={t("pump.basal")} note={percent(report.PumpTotalCount.basalPercent)}>
            {insulin(report.PumpTotalCount.basal)}
          </Figure>
          <Figure label={t("pump.bolus")} note={percent(report.PumpTotalCount.bolusPercent)}>
            {insulin(report.PumpTotalCount.bolus)}
          </Figure>
          <Figure label={t("pump.points")}>{report.PumpTotalCount.recordCount}</Figure>
          <Figure
            label={t("pump.choAvg")}
            note={t("pump.choPerMeal", { value: `${formatNumber(report.choAvg, 1, locale)} ${g}` })}
          >
            {`${formatNumber(report.cho.avg, 1, locale)} ${g}`}
          </Figure>
        </dl>
      </ReportSection>
    </>
  );
}

/** Per-day totals, the meter readings and the pump records of each day. */
export function PumpDayTables({ report, unit }: SectionProps) {
  const { t, locale, unitText, u, uh, percent, insulin } = usePumpFormat(unit);
  const limits = limitsOf(report);
  return (
    <>
      <ReportSection id="pump-days" title={t("pump.perDay")}>
        <table className={`${s.table} ${st.stackTable}`} data-testid="pump-days">
          <thead>
            <tr>
              <th scope="col">{t("pump.date")}</th>
              <th scope="col">{t("pump.total")}</th>
              <th scope="col">{t("pump.basal")}</th>
              <th scope="col">{t("pump.bolus")}</th>
              <th scope="col">{t("pump.points")}</th>
              <th scope="col">{t("pump.glucoseCount")}</th>
              <th scope="col">{t("pump.average")}</th>
            </tr>
          </thead>
          <tbody>
            {report.pumpList.map((day, i) => {
              const sugar = report.sugarList[i]!.patientData;
              const avg =
                sugar.length > 0
                  ? sugar.reduce((a, e) => a + e.statusShort0, 0) / sugar.length
                  : null;
              return (
                <tr key={day.date}>
                  <td data-label={t("pump.date")}>{displayDate(day.date)}</td>
                  <td data-label={t("pump.total")}>
                    {day.hasData ? insulin(day.pumpTotalCount.total) : "—"}
                  </td>
                  <td data-label={t("pump.basal")}>
                    {day.hasData
                      ? `${insulin(day.pumpTotalCount.basal)} (${percent(day.pumpTotalCount.basalPercent)})`
                      : "—"}
                  </td>
                  <td data-label={t("pump.bolus")}>
                    {day.hasData
                      ? `${insulin(day.pumpTotalCount.bolus)} (${percent(day.pumpTotalCount.bolusPercent)})`
                      : "—"}
                  </td>
                  <td data-label={t("pump.points")}>{day.pumpTotalCount.recordCount}</td>
                  <td data-label={t("pump.glucoseCount")}>{sugar.length}</td>
                  <td data-label={t("pump.average")}>{formatGlucose(avg, unit, locale)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ReportSection>
      <ReportSection id="pump-bg" title={t("pump.bgPerDay")}>
        {report.sugarList.some((d) => d.patientData.length > 0) ? (
          <div className={s.dayBlocks} data-testid="pump-bg">
            {report.sugarList
              .filter((day) => day.patientData.length > 0)
              .map((day) => (
                <p key={day.date} className={s.dayBlock}>
                  <strong>{`${displayDate(day.date)} (${unitText}):`}</strong>{" "}
                  {day.patientData.map((e, i) => (
                    <Fragment key={`${e.source}-${e.dateTime}-${e.id ?? ""}`}>
                      {i > 0 ? " · " : ""}
                      {`${e.clock} `}
                      <span className={s.glucoseClass[classify(e.statusShort0, limits)]}>
                        {formatGlucose(e.statusShort0, unit, locale)}
                      </span>
                      {e.source === "pump" ? ` (${t("pump.sources.pump")})` : ""}
                    </Fragment>
                  ))}
                </p>
              ))}
          </div>
        ) : (
          <p className={s.note}>{t("pump.noGlucose")}</p>
        )}
      </ReportSection>
      <ReportSection id="pump-data" title={t("pump.pumpPerDay")}>
        <div className={s.dayBlocks}>
          {report.pumpList
            .filter((day) => day.pumps.length > 0)
            .map((day) => {
              const basal = day.pumps.filter((p) => p.dataType !== "bolus");
              const boluses = day.pumps.filter((p) => p.dataType === "bolus");
              return (
                <section
                  key={day.date}
                  className={s.dayBlock}
                  data-testid="pump-day-data"
                  aria-label={displayDate(day.date)}
                >
                  <h3 className={s.dayBlockTitle}>{displayDate(day.date)}</h3>
                  <p>
                    <strong>{t("pump.basalRate", { unit: uh })}:</strong>{" "}
                    {basal
                      .map((p) => `${p.clock} ${formatNumber(p.basalRate, 3, locale)}`)
                      .join(" · ") || "—"}
                  </p>
                  <p>
                    <strong>{t("pump.bolusUnits", { unit: u })}:</strong>{" "}
                    {boluses
                      .map((p) => {
                        const kind = p.bolusKind ? t(`views:daily.bolusKind.${p.bolusKind}`) : "";
                        const extended =
                          p.delayTime > 0
                            ? `, ${t("pump.delay")} ${t("pump.minutes", { count: minutes(p.delayTime) })}`
                            : "";
                        return `${p.clock} ${formatNumber(p.totalBolusRate, 2, locale)} (${kind}${extended})`;
                      })
                      .join(" · ") || "—"}
                  </p>
                </section>
              );
            })}
        </div>
      </ReportSection>
    </>
  );
}

/** Carbohydrates and alarms (tables of at most 12 rows) and the big boluses (only when at most 25). */
export function PumpEventTables({ report, unit }: SectionProps) {
  const { t, locale, u, g } = usePumpFormat(unit);
  return (
    <>
      <ReportSection id="pump-cho" title={t("pump.cho")}>
        <p className={s.note}>
          {t("pump.choSummary", {
            total: `${formatNumber(report.cho.total, 0, locale)} ${g}`,
            avg: `${formatNumber(report.cho.avg, 1, locale)} ${g}`,
            days: report.cho.daysWithData,
            perMeal: `${formatNumber(report.choAvg, 1, locale)} ${g}`,
          })}
        </p>
        {report.choTables.length === 0 ? <p className={s.note}>{t("pump.noCho")}</p> : null}
        <div className={s.tableGrid}>
          {report.choTables.map((rows, i) => (
            <table key={i} className={s.table} data-testid="pump-cho">
              <thead>
                <tr>
                  <th scope="col">{t("pump.dateTime")}</th>
                  <th scope="col">{t("pump.grams", { unit: g })}</th>
                  <th scope="col">{t("pump.source")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={`${c.dateTime}-${c.grams}`}>
                    <td>{`${displayDate(c.date)} ${c.clock}`}</td>
                    <td>{formatNumber(c.grams, 0, locale)}</td>
                    <td>{t(`views:daily.carbSource.${c.source}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </div>
      </ReportSection>
      <ReportSection id="pump-alarms" title={t("pump.alarms")}>
        {report.warmMsgTables.length === 0 ? <p className={s.note}>{t("pump.noAlarms")}</p> : null}
        <div className={s.tableGrid}>
          {report.warmMsgTables.map((rows, i) => (
            <table key={i} className={s.table} data-testid="pump-alarms">
              <thead>
                <tr>
                  <th scope="col">{t("pump.dateTime")}</th>
                  <th scope="col">{t("pump.alarm")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={`${a.dateTime}-${a.code}`}>
                    <td>{`${displayDate(a.date)} ${a.clock}`}</td>
                    <td>{`${t(`views:daily.alarms.${a.remark}`)} (${t(`views:daily.severity.${a.severity}`)})`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </div>
      </ReportSection>
      <ReportSection id="pump-boluses" title={t("pump.boluses")}>
        {!report.bigBoluses.shown ? (
          <p className={s.note}>{t("pump.tooManyBoluses", { count: report.bigBoluses.count })}</p>
        ) : report.bigBoluses.count === 0 ? (
          <p className={s.note}>{t("pump.noBoluses")}</p>
        ) : (
          <table className={s.table} data-testid="pump-boluses">
            <thead>
              <tr>
                <th scope="col">{t("pump.dateTime")}</th>
                <th scope="col">{t("pump.type")}</th>
                <th scope="col">{t("pump.bolusUnits", { unit: u })}</th>
                <th scope="col">{t("pump.delay")}</th>
              </tr>
            </thead>
            <tbody>
              {report.bigBoluses.entries.map((b) => (
                <tr key={`${b.date}-${b.deviceRecordTime}`}>
                  <td>{`${displayDate(b.date)} ${b.clock}`}</td>
                  <td>{b.bolusKind ? t(`views:daily.bolusKind.${b.bolusKind}`) : "—"}</td>
                  <td>{formatNumber(b.totalBolusRate, 2, locale)}</td>
                  <td>
                    {b.delayTime > 0 ? t("pump.minutes", { count: minutes(b.delayTime) }) : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ReportSection>
    </>
  );
}

/** The newest pump settings upload. */
export function PumpSettingsTable({ report, unit }: SectionProps) {
  const { t, locale, unitText, u, uh, g } = usePumpFormat(unit);
  const list = (values: readonly number[], format: (v: number) => string) =>
    values.length > 0 ? values.map(format).join(" · ") : "—";
  return (
    <ReportSection id="pump-settings" title={t("pump.settings.title")}>
      {report.pdaSetting ? (
        <table className={s.table} data-testid="pump-settings">
          <tbody>
            <tr>
              <th scope="row">{t("pump.settings.originBasal", { unit: uh })}</th>
              <td>{formatNumber(report.pdaSetting.originBasal, 3, locale)}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.bolusRate")}</th>
              <td>{formatNumber(report.pdaSetting.bolusRate, 2, locale)}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.maxBolus", { unit: u })}</th>
              <td>{formatNumber(report.pdaSetting.maxBolus, 2, locale)}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.doubleBolus")}</th>
              <td>
                {report.pdaSetting.doubleBolus === null
                  ? "—"
                  : t(report.pdaSetting.doubleBolus ? "pump.settings.on" : "pump.settings.off")}
              </td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.effectiveTime")}</th>
              <td>
                {report.pdaSetting.effectiveTime === null
                  ? "—"
                  : t("pump.minutes", { count: report.pdaSetting.effectiveTime })}
              </td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.lowBg", { unit: unitText })}</th>
              <td>{list(report.pdaSetting.lowBgArray, (v) => formatGlucose(v, unit, locale))}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.highBg", { unit: unitText })}</th>
              <td>{list(report.pdaSetting.highBgArray, (v) => formatGlucose(v, unit, locale))}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.defaultCho", { unit: `${g}/${u}` })}</th>
              <td>{list(report.pdaSetting.defaultChoArray, (v) => formatNumber(v, 1, locale))}</td>
            </tr>
            <tr>
              <th scope="row">{t("pump.settings.sensitivity", { unit: `${unitText}/${u}` })}</th>
              <td>
                {list(report.pdaSetting.sensitiveSilverArray, (v) =>
                  formatGlucose(v, unit, locale),
                )}
              </td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p className={s.note}>{t("pump.settings.none")}</p>
      )}
    </ReportSection>
  );
}
