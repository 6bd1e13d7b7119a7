-- The own tags of a clinic for the patients who share with it (the triage view filters by them).
-- A tag and its links go with the clinic account, a link goes with the patient record.
-- CreateTable
CREATE TABLE "ClinicTag" (
    "id" SERIAL NOT NULL,
    "clinicId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClinicTag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientTag" (
    "tagId" INTEGER NOT NULL,
    "patientId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PatientTag_pkey" PRIMARY KEY ("tagId","patientId")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClinicTag_clinicId_name_key" ON "ClinicTag"("clinicId", "name");

-- CreateIndex
CREATE INDEX "PatientTag_patientId_idx" ON "PatientTag"("patientId");

-- AddForeignKey
ALTER TABLE "ClinicTag" ADD CONSTRAINT "ClinicTag_clinicId_fkey" FOREIGN KEY ("clinicId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientTag" ADD CONSTRAINT "PatientTag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "ClinicTag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientTag" ADD CONSTRAINT "PatientTag_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

