import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import type { PatientView } from "~/services/patient-view.server";
import { dayWindow } from "~/report/day";
import { buildPumpDay } from "~/report/pump-day";
import { pumpRecord } from "~/report/test-records";
import { viewChart } from "./view-charts.server";

const WAW = "Europe/Warsaw";
const DATE = "2026-11-20";
const H = 3_600_000;
const t = ((key: string) => `[${key}]`) as unknown as TFunction;

/** A DAILY view of one day whose basal rate is `basal` U/h from 02:00. */
function dailyView(basal: number): PatientView {
  const start = dayWindow(DATE, WAW).start;
  const pump = buildPumpDay({
    date: DATE,
    timeZone: WAW,
    records: [pumpRecord(start + 2 * H, { basal }), pumpRecord(start + 20 * H, { basal })],
  });
  const nav = {
    date: DATE,
    today: "2026-11-24",
    previous: "2026-11-19",
    next: "2026-11-21",
    lastDay: DATE,
    nearest: null,
    problem: null,
    typed: DATE,
  };
  return { tab: "daily", nav, pump } as unknown as PatientView;
}

describe("viewChart", () => {
  it("answers the same chart for the same view, and a new chart when the data, unit or language differ", () => {
    const first = viewChart(dailyView(1.2), { unit: 0, locale: "en", t });
    expect(first.wide).toContain("<svg");
    expect(first.narrow).toContain("<svg");
    expect(first.wide).toContain('viewBox="0 0 720 ');
    expect(first.narrow).toContain('viewBox="0 0 340 ');
    // Hover titles only on the wide drawing: the narrow one names the chart alone.
    expect(first.wide.match(/<title>/g)!.length).toBeGreaterThan(1);
    expect(first.narrow.match(/<title>/g)).toHaveLength(1);
    expect(viewChart(dailyView(1.2), { unit: 0, locale: "en", t })).toBe(first);

    const otherData = viewChart(dailyView(2.5), { unit: 0, locale: "en", t });
    expect(otherData.wide).not.toBe(first.wide);
    expect(otherData.narrow).not.toBe(first.narrow);
    const otherUnit = viewChart(dailyView(1.2), { unit: 1, locale: "en", t });
    expect(otherUnit.wide).not.toBe(first.wide);
    expect(otherUnit.narrow).not.toBe(first.narrow);
    const otherLanguage = viewChart(dailyView(1.2), {
      unit: 0,
      locale: "pl",
      t: ((key: string) => `{${key}}`) as unknown as TFunction,
    });
    expect(otherLanguage.wide).not.toBe(first.wide);
    expect(otherLanguage.narrow).not.toBe(first.narrow);
    expect(otherLanguage.wide).toContain("{views:chart.basal}");
    expect(otherLanguage.narrow).toContain("{views:chart.basal}");
  });
});
