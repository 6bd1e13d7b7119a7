-- The triage list of a clinic reads the last 14 days of CGM of every patient sharing with the
-- clinic (500 patients x 14 days are 2 million readings) in one statement. With the glucose value
-- in the index those reads are index-only scans instead of one heap page per reading. Reads by
-- patient and time use the index as before.
-- DropIndex
DROP INDEX "CgmRecord_patientId_dateTime_idx";

-- CreateIndex
CREATE INDEX "CgmRecord_patientId_dateTime_eventData_idx" ON "CgmRecord"("patientId", "dateTime", "eventData");
