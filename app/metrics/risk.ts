/**
 * Risk and quality-of-control indices of the raw readings (iglu 4.3.0 `lbgi`, `hbgi`, `adrr`,
 * `m_value`, `grade`, `j_index`). Glucose in mg/dL.
 *
 * Data sufficiency (all of them): the STANDARD rule of coverage.ts (CGM: 14 days and 70% sensor
 * active, Battelino 2019 doi:10.2337/dci19-0028; meter: 14 days with >= 3 readings each,
 * DiaCare's rule modelled on the routine SMBG that Kovatchev 2006, doi:10.2337/dc06-1085, used).
 */
import { mgdlToMmol } from "../domain/glucose-unit";
import type { MetricContext } from "./context";
import { CompensatedSum } from "./numeric";
import { finiteOrNull, metric, NO_VALUE, type MetricResult } from "./types";

/** Kovatchev's symmetrising transform f(g) = ln(g)^1.084 - 5.381 (g in mg/dL). */
export function kovatchevF(g: number): number {
  return Math.pow(Math.log(g), 1.084) - 5.381;
}

const fCache = new WeakMap<Float64Array, Float64Array>();

/** f(g) of every reading, computed once per series and shared by LBGI, HBGI and ADRR. */
function kovatchevValues(g: Float64Array): Float64Array {
  let f = fCache.get(g);
  if (f === undefined) {
    f = new Float64Array(g.length);
    for (let i = 0; i < g.length; i++) f[i] = kovatchevF(g[i]!);
    fCache.set(g, f);
  }
  return f;
}

/** 22.77 = 10 * 1.509^2 rounded as published; risk r(g) = 22.77 f(g)^2. */
export const KOVATCHEV_SCALE = 22.77;
/** The glucose where f changes sign (mg/dL); iglu splits low/high risk here. */
export const KOVATCHEV_SPLIT_MGDL = 112.5;

/**
 * LBGI, low blood glucose index: (1/n) * sum over g < 112.5 of 22.77 f(g)^2. Unitless (0-100).
 * Reference: Kovatchev BP, et al. Symmetrization of the blood glucose measurement scale and its
 * applications. Diabetes Care 1997;20:1655-1658, doi:10.2337/diacare.20.11.1655; Kovatchev BP,
 * et al. Assessment of risk for severe hypoglycemia among adults with IDDM: validation of the
 * low blood glucose index. Diabetes Care 1998;21:1870-1875, doi:10.2337/diacare.21.11.1870.
 */
export function lbgi(ctx: MetricContext): MetricResult {
  const g = ctx.series.mgdl;
  const n = g.length;
  if (n === 0) return NO_VALUE;
  const fs = kovatchevValues(g);
  const acc = new CompensatedSum();
  for (let i = 0; i < n; i++) {
    if (g[i]! < KOVATCHEV_SPLIT_MGDL) {
      const f = fs[i]!;
      acc.add(f * f);
    }
  }
  return metric(finiteOrNull((KOVATCHEV_SCALE * acc.value) / n), ctx.coverage.standard);
}

/**
 * HBGI, high blood glucose index: (1/n) * sum over g >= 112.5 of 22.77 f(g)^2. Unitless (0-100).
 * Reference: Kovatchev 1997 (above); Kovatchev BP, et al. Algorithmic evaluation of metabolic
 * control and risk of severe hypoglycemia in type 1 and type 2 diabetes using self-monitoring
 * blood glucose data. Diabetes Technol Ther 2003;5:817-828, doi:10.1089/152091503322527021.
 */
export function hbgi(ctx: MetricContext): MetricResult {
  const g = ctx.series.mgdl;
  const n = g.length;
  if (n === 0) return NO_VALUE;
  const fs = kovatchevValues(g);
  const acc = new CompensatedSum();
  for (let i = 0; i < n; i++) {
    if (g[i]! >= KOVATCHEV_SPLIT_MGDL) {
      const f = fs[i]!;
      acc.add(f * f);
    }
  }
  return metric(finiteOrNull((KOVATCHEV_SCALE * acc.value) / n), ctx.coverage.standard);
}

/**
 * ADRR, average daily risk range: for each local calendar day d with readings,
 *   DR_d = 22.77 max(max_i f(g_i), 0)^2 + 22.77 min(min_i f(g_i), 0)^2
 * (the high risk of the day's highest reading plus the low risk of its lowest);
 * ADRR = mean of DR_d over the days. Unitless.
 * Days are calendar days in the patient's time zone (a reading at local midnight starts the new
 * day); on a DST day the local day is 23 or 25 h long. iglu uses the POSIXct time zone the same
 * way.
 * Reference: Kovatchev BP, et al. Evaluation of a New Measure of Blood Glucose Variability in
 * Diabetes. Diabetes Care 2006;29:2433-2438, doi:10.2337/dc06-1085.
 */
export function adrr(ctx: MetricContext): MetricResult {
  const { time, mgdl } = ctx.series;
  const n = mgdl.length;
  if (n === 0) return NO_VALUE;
  const fs = kovatchevValues(mgdl);
  const acc = new CompensatedSum();
  let days = 0;
  let day = ctx.zone.localDay(time[0]!);
  let fMax = Number.NEGATIVE_INFINITY;
  let fMin = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= n; i++) {
    const d = i < n ? ctx.zone.localDay(time[i]!) : Number.NaN;
    if (d !== day) {
      const hi = Math.max(fMax, 0);
      const lo = Math.min(fMin, 0);
      acc.add(KOVATCHEV_SCALE * hi * hi + KOVATCHEV_SCALE * lo * lo);
      days++;
      day = d;
      fMax = Number.NEGATIVE_INFINITY;
      fMin = Number.POSITIVE_INFINITY;
    }
    if (i < n) {
      const f = fs[i]!;
      if (f > fMax) fMax = f;
      if (f < fMin) fMin = f;
    }
  }
  return metric(finiteOrNull(acc.value / days), ctx.coverage.standard);
}

/** Default reference glucose of the M-value, mg/dL ("basal glycemia in normal subjects"). */
export const M_VALUE_DEFAULT_REF = 90;

/**
 * M-value: mean of 1000 |log10(g / r)|^3 with reference r (default 90 mg/dL, configurable;
 * Schlichtkrull used 120 mg/dL, iglu defaults to 90). Unitless.
 * Reference: Schlichtkrull J, Munck O, Jersild M. The M-value, an index of blood-sugar control
 * in diabetics. Acta Med Scand 1965;177:95-102, doi:10.1111/j.0954-6820.1965.tb01810.x.
 */
export function mValue(ctx: MetricContext, ref: number = M_VALUE_DEFAULT_REF): MetricResult {
  if (!(ref > 0) || !Number.isFinite(ref))
    throw new RangeError(`M-value reference must be a positive number, got ${ref}`);
  const g = ctx.series.mgdl;
  const n = g.length;
  if (n === 0) return NO_VALUE;
  const acc = new CompensatedSum();
  for (let i = 0; i < n; i++) {
    const a = Math.abs(Math.log10(g[i]! / ref));
    acc.add(1000 * a * a * a);
  }
  return metric(finiteOrNull(acc.value / n), ctx.coverage.standard);
}

/** GRADE score of one reading: min(425 (log10(log10(g / 18)) + 0.16)^2, 50). */
export function gradeScore(g: number): number {
  const inner = Math.log10(mgdlToMmol(g));
  // g <= 18 mg/dL (1 mmol/L): the double log is -Infinity or undefined; R would give 50 at 18 and
  // NaN below. DiaCare scores every such reading at the cap of 50 (maximal risk).
  if (!(inner > 0)) return 50;
  const x = Math.log10(inner) + 0.16;
  return Math.min(425 * x * x, 50);
}

/**
 * GRADE, glycaemic risk assessment diabetes equation: mean over readings of
 * min(425 (log10(log10(g / 18)) + 0.16)^2, 50), g in mg/dL (g / 18 is mmol/L). Unitless.
 * Reference: Hill NR, et al. A method for assessing quality of control from glucose profiles.
 * Diabet Med 2007;24:753-758, doi:10.1111/j.1464-5491.2007.02119.x.
 */
export function grade(ctx: MetricContext): MetricResult {
  const g = ctx.series.mgdl;
  const n = g.length;
  if (n === 0) return NO_VALUE;
  const acc = new CompensatedSum();
  for (let i = 0; i < n; i++) acc.add(gradeScore(g[i]!));
  return metric(finiteOrNull(acc.value / n), ctx.coverage.standard);
}

/**
 * J-index: 0.001 (mean + SD)^2, mean and sample SD in mg/dL. Unit: (mg/dL)^2 / 1000.
 * Reference: Wojcicki JM. "J"-index. A new proposition of the assessment of current glucose
 * control in diabetic patients. Horm Metab Res 1995;27:41-42, doi:10.1055/s-2007-979906.
 */
export function jIndex(ctx: MetricContext): MetricResult {
  const s = ctx.mean + ctx.sd;
  return metric(finiteOrNull(0.001 * s * s), ctx.coverage.standard);
}
