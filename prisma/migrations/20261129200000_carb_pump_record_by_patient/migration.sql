-- Every read of patient data goes through an index that starts with the patient. The export of
-- a patient's imported carbohydrate entries asks for those without a pump record
-- ("pumpRecordId" IS NULL); with an index on "pumpRecordId" alone the planner could read that
-- index across every patient's entries. One carbohydrate entry per pump record stays unique, now
-- within the patient (a pump record belongs to one patient).
-- DropIndex
DROP INDEX "CarbEntry_pumpRecordId_key";

-- CreateIndex
CREATE UNIQUE INDEX "CarbEntry_patientId_pumpRecordId_key" ON "CarbEntry"("patientId", "pumpRecordId");
