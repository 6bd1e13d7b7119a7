/**
 * The metrics of `computeAll` under iglu's key names (the CLI's output format and the keys of
 * iglu_expected.json), plus DiaCare's `auc100`, `aac100` and `agp`. A value that cannot be
 * computed is null.
 */
import type { AllMetrics } from "./index";

export interface IgluAgp {
  p5: (number | null)[];
  p25: (number | null)[];
  p50: (number | null)[];
  p75: (number | null)[];
  p95: (number | null)[];
}

/** Scalar iglu keys, in output order. */
export const IGLU_SCALAR_KEYS = [
  "mean_glucose",
  "median_glucose",
  "sd_glucose",
  "cv_glucose",
  "iqr_glucose",
  "range_glucose",
  "j_index",
  "m_value",
  "lbgi",
  "hbgi",
  "adrr",
  "grade",
  "mage",
  "mage_naive",
  "modd",
  "conga_n1",
  "conga_n4",
  "mag",
  "gmi",
  "ea1c",
  "in_range_70_180",
  "in_range_63_140",
  "in_range_70_140",
  "below_54",
  "below_70",
  "above_180",
  "above_250",
  "active_percent",
] as const;

export type IgluScalarKey = (typeof IGLU_SCALAR_KEYS)[number];

export type IgluRecord = Record<IgluScalarKey | "auc100" | "aac100", number | null> & {
  agp: IgluAgp | null;
};

/** The scalar iglu values of a computeAll result. */
export function igluScalars(m: AllMetrics): Record<IgluScalarKey, number | null> {
  const t = m.timeInRanges.value;
  return {
    mean_glucose: m.mean.value,
    median_glucose: m.median.value,
    sd_glucose: m.sd.value,
    cv_glucose: m.cv.value,
    iqr_glucose: m.iqr.value,
    range_glucose: m.lage.value,
    j_index: m.jIndex.value,
    m_value: m.mValue.value,
    lbgi: m.lbgi.value,
    hbgi: m.hbgi.value,
    adrr: m.adrr.value,
    grade: m.grade.value,
    mage: m.mage.value,
    mage_naive: m.mageNaive.value,
    modd: m.modd.value,
    conga_n1: m.conga1.value,
    conga_n4: m.conga4.value,
    mag: m.mag.value,
    gmi: m.gmi.value,
    ea1c: m.ea1c.value,
    in_range_70_180: t?.range70to180 ?? null,
    in_range_63_140: t?.range63to140 ?? null,
    in_range_70_140: t?.range70to140 ?? null,
    below_54: t?.below54 ?? null,
    below_70: t?.below70 ?? null,
    above_180: t?.above180 ?? null,
    above_250: t?.above250 ?? null,
    active_percent: m.activePercent.value,
  };
}

/** The full CLI record: iglu scalars, then auc100, aac100 and the AGP percentiles. */
export function toIgluRecord(m: AllMetrics): IgluRecord {
  const a = m.agp.value;
  return {
    ...igluScalars(m),
    auc100: m.auc100.value,
    aac100: m.aac100.value,
    agp: a === null ? null : { p5: a.p5, p25: a.p25, p50: a.p50, p75: a.p75, p95: a.p95 },
  };
}
