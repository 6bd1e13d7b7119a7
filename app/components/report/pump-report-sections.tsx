import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import type { PumpReport } from "~/report/pump-report-model";
import {
  pumpSettingRows,
  type PumpSettingUnit,
  type PumpSettingValue,
} from "~/report/pump-settings";
import { formatDate, formatDateClock } from "~/report/locale-format";
import type { GlucoseUnit } from "~/domain/glucose-unit";
import { classify, formatGlucose, formatNumber, formatQuantity } from "~/report/units";
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

/** Glucose statistics and pump totals. */
export function PumpSummary({ report, unit }: SectionProps) {
  const { t, locale, g, glucose, percent, insulin } = usePumpFormat(unit);
  const { limits } = report;
  return (
    <>
      <ReportSection id="pump-glucose" title={t("pump.glucose")}>
        <dl className={s.figures} data-testid="pump-glucose">
          <Figure label={t("pump.average")}>{glucose(report.glucoseSummary.mean)}</Figure>
          <Figure label={t("pump.count")}>
            {formatQuantity(report.glucoseSummary.count, locale)}
          </Figure>
          <Figure
            label={t("pump.high")}
            note={t("pump.values", { count: report.glucoseSummary.high })}
          >
            {percent(report.glucoseSummary.highPercent)}
          </Figure>
          <Figure
            label={t("pump.low")}
            note={t("pump.values", { count: report.glucoseSummary.low })}
          >
            {percent(report.glucoseSummary.lowPercent)}
          </Figure>
          <Figure
            label={t("pump.targetRange")}
          >{`${formatGlucose(limits.low, unit, locale)}–${glucose(limits.high)}`}</Figure>
        </dl>
      </ReportSection>
      <ReportSection id="pump-totals" title={t("pump.totals")}>
        <dl className={s.figures} data-testid="pump-totals">
          <Figure label={t("pump.total")}>{insulin(report.insulinTotals.total)}</Figure>
          <Figure label={t("pump.basal")} note={percent(report.insulinTotals.basalPercent)}>
            {insulin(report.insulinTotals.basal)}
          </Figure>
          <Figure label={t("pump.bolus")} note={percent(report.insulinTotals.bolusPercent)}>
            {insulin(report.insulinTotals.bolus)}
          </Figure>
          <Figure label={t("pump.points")}>
            {formatQuantity(report.insulinTotals.recordCount, locale)}
          </Figure>
          <Figure
            label={t("pump.choAvg")}
            note={t("pump.choPerMeal", {
              value: `${formatNumber(report.carbsPerEntry, 1, locale)} ${g}`,
            })}
          >
            {`${formatNumber(report.carbs.perDay, 1, locale)} ${g}`}
          </Figure>
        </dl>
      </ReportSection>
    </>
  );
}

/** Per-day totals, the meter readings and the pump records of each day. */
export function PumpDayTables({ report, unit }: SectionProps) {
  const { t, locale, unitText, u, uh, percent, insulin } = usePumpFormat(unit);
  const { limits } = report;
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
            {report.insulinDays.map((day, i) => {
              const glucose = report.glucoseDays[i]!.readings;
              const avg =
                glucose.length > 0
                  ? glucose.reduce((a, e) => a + e.mgdl, 0) / glucose.length
                  : null;
              return (
                <tr key={day.date}>
                  <td data-label={t("pump.date")}>{formatDate(day.date, locale)}</td>
                  <td data-label={t("pump.total")}>
                    {day.hasData ? insulin(day.totals.total) : "—"}
                  </td>
                  <td data-label={t("pump.basal")}>
                    {day.hasData
                      ? `${insulin(day.totals.basal)} (${percent(day.totals.basalPercent)})`
                      : "—"}
                  </td>
                  <td data-label={t("pump.bolus")}>
                    {day.hasData
                      ? `${insulin(day.totals.bolus)} (${percent(day.totals.bolusPercent)})`
                      : "—"}
                  </td>
                  <td data-label={t("pump.points")}>{day.totals.recordCount}</td>
                  <td data-label={t("pump.glucoseCount")}>{glucose.length}</td>
                  <td data-label={t("pump.average")}>{formatGlucose(avg, unit, locale)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ReportSection>
      <ReportSection id="pump-bg" title={t("pump.bgPerDay")}>
        {report.glucoseDays.some((d) => d.readings.length > 0) ? (
          <div className={s.dayBlocks} data-testid="pump-bg">
            {report.glucoseDays
              .filter((day) => day.readings.length > 0)
              .map((day) => (
                <p key={day.date} className={s.dayBlock}>
                  <strong>{`${formatDate(day.date, locale)} (${unitText}):`}</strong>{" "}
                  {day.readings.map((e, i) => (
                    <Fragment key={`${e.source}-${e.time}-${e.id ?? ""}`}>
                      {i > 0 ? " · " : ""}
                      {`${e.clock} `}
                      <span className={s.glucoseClass[classify(e.mgdl, limits)]}>
                        {formatGlucose(e.mgdl, unit, locale)}
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
          {report.insulinDays
            .filter((day) => day.entries.length > 0)
            .map((day) => {
              const basal = day.entries.filter((p) => p.dataType !== "bolus");
              const boluses = day.entries.filter((p) => p.dataType === "bolus");
              return (
                <section
                  key={day.date}
                  className={s.dayBlock}
                  data-testid="pump-day-data"
                  aria-label={formatDate(day.date, locale)}
                >
                  <h3 className={s.dayBlockTitle}>{formatDate(day.date, locale)}</h3>
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
                          p.extendedDisplayMs > 0
                            ? `, ${t("pump.delay")} ${t("pump.minutes", { count: minutes(p.extendedDisplayMs) })}`
                            : "";
                        return `${p.clock} ${formatNumber(p.bolusUnitsDisplay, 2, locale)} (${kind}${extended})`;
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
            total: `${formatNumber(report.carbs.total, 0, locale)} ${g}`,
            avg: `${formatNumber(report.carbs.perDay, 1, locale)} ${g}`,
            count: report.carbs.daysWithData,
            perMeal: `${formatNumber(report.carbsPerEntry, 1, locale)} ${g}`,
          })}
        </p>
        {report.carbTables.length === 0 ? <p className={s.note}>{t("pump.noCho")}</p> : null}
        <div className={s.tableGrid}>
          {report.carbTables.map((rows, i) => (
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
                  <tr key={`${c.time}-${c.grams}`}>
                    <td>{formatDateClock(c.date, c.clock, locale)}</td>
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
        {report.alarmTables.length === 0 ? <p className={s.note}>{t("pump.noAlarms")}</p> : null}
        <div className={s.tableGrid}>
          {report.alarmTables.map((rows, i) => (
            <table key={i} className={s.table} data-testid="pump-alarms">
              <thead>
                <tr>
                  <th scope="col">{t("pump.dateTime")}</th>
                  <th scope="col">{t("pump.alarm")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={`${a.time}-${a.code}`}>
                    <td>{formatDateClock(a.date, a.clock, locale)}</td>
                    <td>{`${t(`views:daily.alarms.${a.kind}`)} (${t(`views:daily.severity.${a.severity}`)})`}</td>
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
                <tr key={`${b.date}-${b.start}`}>
                  <td>{formatDateClock(b.date, b.clock, locale)}</td>
                  <td>{b.bolusKind ? t(`views:daily.bolusKind.${b.bolusKind}`) : "—"}</td>
                  <td>{formatNumber(b.bolusUnitsDisplay, 2, locale)}</td>
                  <td>
                    {b.extendedDisplayMs > 0
                      ? t("pump.minutes", { count: minutes(b.extendedDisplayMs) })
                      : "—"}
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

/** The newest pump settings upload: every stored setting, each with its unit. */
export function PumpSettingsTable({ report, unit }: SectionProps) {
  const { t, locale, unitText, u, uh, g } = usePumpFormat(unit);
  const unitLabel: Record<PumpSettingUnit, string> = {
    "U/h": uh,
    U: u,
    "%": "%",
    "g/U": `${g}/${u}`,
    glucose: unitText,
    "glucose/U": `${unitText}/${u}`,
  };
  const list = (values: readonly number[], format: (v: number) => string) =>
    values.length > 0 ? values.map(format).join(" · ") : "—";
  const shown = (value: PumpSettingValue): string => {
    switch (value.kind) {
      case "text":
        return value.text || "—";
      case "number":
        return formatNumber(value.value, value.decimals, locale);
      case "onOff":
        return value.on === null ? "—" : t(value.on ? "pump.settings.on" : "pump.settings.off");
      case "minutes":
        return value.value === null ? "—" : t("pump.minutes", { count: value.value });
      case "numbers":
        return list(value.values, (v) => formatNumber(v, value.decimals, locale));
      case "glucose":
        return list(value.values, (v) => formatGlucose(v, unit, locale));
    }
  };
  return (
    <ReportSection id="pump-settings" title={t("pump.settings.title")}>
      {report.pumpSettings ? (
        <table className={s.table} data-testid="pump-settings">
          <tbody>
            {pumpSettingRows(report.pumpSettings).map((row) => (
              <tr key={row.key} data-setting={row.key}>
                <th scope="row">
                  {t(`pump.settings.${row.key}`, row.unit ? { unit: unitLabel[row.unit] } : {})}
                </th>
                <td>{shown(row.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={s.note}>{t("pump.settings.none")}</p>
      )}
    </ReportSection>
  );
}
