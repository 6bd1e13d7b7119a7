/**
 * The consensus CGM goal sets a patient's glucose-profile report applies, chosen per patient in
 * the health record (`Patient.cgmGoalSet`): the goals for most adults with type 1 or type 2
 * diabetes, the stricter-on-lows goals for older or high-risk adults, and the goals for pregnancy
 * with type 1 diabetes (a tighter 63-140 mg/dL target range). A stored or sent value that is not
 * one of them reads as the standard set.
 */
export const CGM_GOAL_SETS = ["standard", "olderHighRisk", "pregnancy"] as const;
export type CgmGoalSet = (typeof CGM_GOAL_SETS)[number];
export const DEFAULT_CGM_GOAL_SET: CgmGoalSet = "standard";

export function isCgmGoalSet(value: unknown): value is CgmGoalSet {
  return typeof value === "string" && (CGM_GOAL_SETS as readonly string[]).includes(value);
}

/** A stored value as a goal set: the standard set unless it names another. */
export function toCgmGoalSet(value: unknown): CgmGoalSet {
  return isCgmGoalSet(value) ? value : DEFAULT_CGM_GOAL_SET;
}
