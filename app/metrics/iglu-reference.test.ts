/**
 * iglu 4.3.0 reference test: every metric of iglu_expected.json that the engine computes, for
 * each of the 5 subjects of example_cgm.csv, to a relative error of 1e-6 (AGP: 1e-6 mg/dL
 * absolute). Days are UTC days, as in the reference run; the EST block checks the time-zone path.
 */
import { describe, expect, it } from "vitest";
import { agp } from "./agp";
import { quantileGlucose } from "./basic";
import { createContext } from "./context";
import { IGLU_SCALAR_KEYS, igluScalars } from "./iglu-keys";
import { computeAll } from "./index";
import { mageMaDirections } from "./mage";
import { gri, timeInRanges } from "./ranges";
import { mValue } from "./risk";
import { conga, mag, modd } from "./variability";
import { loadIgluExpected, loadIgluReadings, relClose } from "./test-utils";

const expected = loadIgluExpected();
const readings = loadIgluReadings();
const subjects = Object.keys(expected.subjects);
const PERCENTILES = ["p5", "p25", "p50", "p75", "p95"] as const;

/** iglu keys this test checks beyond the CLI's scalar keys, with how the engine computes each. */
const EXTRA_KEYS = [
  "n_readings",
  "min_glucose",
  "q25_glucose",
  "q75_glucose",
  "max_glucose",
  "m_value_r100",
  "m_value_r120",
  "gri",
  "above_140",
  "mage_plus",
  "mage_minus",
  "mage_max",
  "mage_service",
  "modd_lag2",
  "conga",
  "conga_n2",
  "mag_n60",
] as const;

function extras(id: string): Record<(typeof EXTRA_KEYS)[number], number | null> {
  const ctx = createContext(readings.get(id)!, { timeZone: "UTC" });
  const dirs = mageMaDirections(ctx.grid.values, ctx.grid.stepMin);
  return {
    n_readings: ctx.series.length,
    min_glucose: quantileGlucose(ctx, 0).value,
    q25_glucose: quantileGlucose(ctx, 0.25).value,
    q75_glucose: quantileGlucose(ctx, 0.75).value,
    max_glucose: quantileGlucose(ctx, 1).value,
    m_value_r100: mValue(ctx, 100).value,
    m_value_r120: mValue(ctx, 120).value,
    gri: gri(ctx).value,
    above_140: timeInRanges(ctx).value?.above140 ?? null,
    mage_plus: dirs.plus,
    mage_minus: dirs.minus,
    mage_max: dirs.max,
    mage_service: dirs.service,
    modd_lag2: modd(ctx, 2).value,
    conga: conga(ctx, 24).value,
    conga_n2: conga(ctx, 2).value,
    mag_n60: mag(ctx, 60).value,
  };
}

describe("iglu 4.3.0 reference values (example_cgm.csv, UTC days)", () => {
  it("has the 5 subjects", () => {
    expect(subjects).toEqual(["Subject 1", "Subject 2", "Subject 3", "Subject 4", "Subject 5"]);
    expect([...readings.keys()]).toEqual(subjects);
  });

  describe.each(subjects)("%s", (id) => {
    const e = expected.subjects[id]!;
    const all = computeAll(readings.get(id)!, { timeZone: "UTC" });
    const mine = igluScalars(all);
    const more = extras(id);

    it.each([...IGLU_SCALAR_KEYS])("%s", (key) => {
      const want = e[key];
      expect(typeof want).toBe("number");
      expect(relClose(mine[key], want!), `${key}: got ${mine[key]}, iglu ${want}`).toBe(true);
    });

    it.each([...EXTRA_KEYS])("%s", (key) => {
      const want = e[key];
      expect(typeof want).toBe("number");
      expect(relClose(more[key], want!), `${key}: got ${more[key]}, iglu ${want}`).toBe(true);
    });

    it("LAGE equals iglu's range", () => {
      expect(all.lage.value).toBe(e["range_glucose"]);
    });

    it("AGP: 288 columns x 5 percentiles within 1e-6 mg/dL", () => {
      const a = all.agp.value!;
      const ea = expected.agp[id]!;
      expect(a.timeOfDayMin).toEqual(ea.time_of_day_min);
      for (const p of PERCENTILES) {
        expect(a[p].length).toBe(288);
        for (let c = 0; c < 288; c++) {
          const v = a[p][c];
          expect(v, `${p}[${c}]`).not.toBeNull();
          expect(Math.abs(v! - ea[p][c]!), `${p}[${c}]: ${v} vs ${ea[p][c]}`).toBeLessThanOrEqual(
            1e-6,
          );
        }
      }
    });
  });
});

describe("iglu on its original EST (UTC-5) data: day boundaries follow the time zone", () => {
  const est = expected.tz_sensitivity_original_EST.subjects;
  it.each(subjects)(
    "%s: ADRR with EST days; boundary-free metrics unchanged; AGP rotated by 5 h",
    (id) => {
      const utc = computeAll(readings.get(id)!, { timeZone: "UTC" });
      const m = computeAll(readings.get(id)!, { timeZone: "-05:00" });
      expect(
        relClose(m.adrr.value, est[id]!["adrr"]!),
        `adrr ${m.adrr.value} vs ${est[id]!["adrr"]}`,
      ).toBe(true);
      expect(m.adrr.value).not.toBe(utc.adrr.value);
      // Grid metrics do not depend on where days start (the grid instants are the same).
      for (const k of [
        "mage",
        "modd",
        "conga_n1",
        "conga_n4",
        "mag",
        "active_percent",
        "mean_glucose",
      ] as const) {
        expect(relClose(igluScalars(m)[k], expected.subjects[id]![k]!), k).toBe(true);
      }
      // EST column c holds local time (c + 1) x 5 min = UTC column c + 60 (mod 288).
      const a = agp(createContext(readings.get(id)!, { timeZone: "-05:00" })).value!;
      const u = utc.agp.value!;
      for (let c = 0; c < 288; c++) expect(a.p50[c]).toBe(u.p50[(c + 60) % 288]);
    },
  );
});
