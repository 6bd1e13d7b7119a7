/**
 * Control levels and risk levels shown next to the report metrics. Control levels: ideal, good,
 * fair, poor, lack of control. Risk levels: extremely low, low, moderate (or medium), high.
 *
 * Control level: the five zones of the Glycemia Risk Index, which are the quintiles of the
 * clinician ratings it was validated on:
 *   GRI 0-20 zone A ideal | >20-40 zone B good | >40-60 zone C fair | >60-80 zone D poor |
 *   >80-100 zone E lack of control.
 * Reference: Klonoff DC, et al. A Glycemia Risk Index (GRI) of Hypoglycemia and Hyperglycemia
 * for Continuous Glucose Monitoring Validated by Clinician Ratings. J Diabetes Sci Technol
 * 2023;17:1226-1242, doi:10.1177/19322968221085273. GRI combines time below and above range
 * (ranges.ts), so it rests on the Battelino 2019 consensus ranges (doi:10.2337/dci19-0028).
 *
 * Risk levels (Kovatchev's published cut points):
 * - LBGI: <= 1.1 extremely low ("minimal"), 1.1-2.5 low, 2.5-5.0 moderate, > 5.0 high.
 *   Kovatchev BP, et al. Diabetes Care 1998;21:1870-1875, doi:10.2337/diacare.21.11.1870
 *   (low < 2.5, moderate 2.5-5, high > 5) and Kovatchev BP, et al. Diabetes Technol Ther
 *   2003;5:817-828, doi:10.1089/152091503322527021 (minimal <= 1.1).
 * - HBGI: <= 4.5 low, 4.5-9.0 moderate, > 9.0 high (Kovatchev 2003 above); HBGI has no
 *   "minimal" class.
 * - ADRR: < 20 low, 20 to < 40 moderate, >= 40 high. Kovatchev BP, et al. Diabetes Care
 *   2006;29:2433-2438, doi:10.2337/dc06-1085.
 * These cut points were set on SMBG data; on CGM data LBGI runs lower (Fabris C, et al. J
 * Diabetes Sci Technol 2016;10:50-59, doi:10.1177/1932296815599177), so read CGM levels as
 * indicative.
 *
 * A level inherits the sufficiency of the metric it is derived from.
 */
import type { MetricResult } from "./types";
import { metric } from "./types";

export type ControlLevel = "ideal" | "good" | "fair" | "poor" | "lackOfControl";
export type RiskLevel = "extremelyLow" | "low" | "moderate" | "high";

/** Control level of a GRI value (0-100). */
export function controlLevelOfGri(gri: number): ControlLevel {
  if (gri <= 20) return "ideal";
  if (gri <= 40) return "good";
  if (gri <= 60) return "fair";
  if (gri <= 80) return "poor";
  return "lackOfControl";
}

export function lbgiRiskLevel(lbgi: number): RiskLevel {
  if (lbgi <= 1.1) return "extremelyLow";
  if (lbgi <= 2.5) return "low";
  if (lbgi <= 5) return "moderate";
  return "high";
}

export function hbgiRiskLevel(hbgi: number): RiskLevel {
  if (hbgi <= 4.5) return "low";
  if (hbgi <= 9) return "moderate";
  return "high";
}

export function adrrRiskLevel(adrr: number): RiskLevel {
  if (adrr < 20) return "low";
  if (adrr < 40) return "moderate";
  return "high";
}

/** Maps a metric result through a level function, keeping its sufficiency. */
export function levelOf<L>(r: MetricResult, f: (v: number) => L): MetricResult<L> {
  return metric(r.value === null ? null : f(r.value), r.sufficient);
}
