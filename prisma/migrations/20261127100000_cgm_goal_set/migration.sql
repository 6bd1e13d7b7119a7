-- The consensus CGM goal set of a patient's glucose-profile report: standard, older or high-risk
-- adults, or pregnancy. Existing patients keep the standard goals.
-- AlterTable
ALTER TABLE "Patient" ADD COLUMN "cgmGoalSet" TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE "Patient" ADD CONSTRAINT "Patient_cgmGoalSet_check" CHECK ("cgmGoalSet" IN ('standard', 'olderHighRisk', 'pregnancy'));
