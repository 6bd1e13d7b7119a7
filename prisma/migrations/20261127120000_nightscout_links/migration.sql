-- Nightscout API: links per patient, the trend of CGM readings, kept device statuses.
ALTER TYPE "AccessChannel" ADD VALUE 'nightscout';

ALTER TABLE "CgmRecord" ADD COLUMN "direction" TEXT;

CREATE TABLE "NightscoutLink" (
    "id" TEXT NOT NULL,
    "patientId" INTEGER NOT NULL,
    "createdById" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "NightscoutLink_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "NightscoutLink_patientId_idx" ON "NightscoutLink"("patientId");

ALTER TABLE "NightscoutLink" ADD CONSTRAINT "NightscoutLink_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "NightscoutLink" ADD CONSTRAINT "NightscoutLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "NightscoutDeviceStatus" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "linkId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "document" JSONB NOT NULL,

    CONSTRAINT "NightscoutDeviceStatus_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "NightscoutDeviceStatus_patientId_createdAt_idx" ON "NightscoutDeviceStatus"("patientId", "createdAt");

ALTER TABLE "NightscoutDeviceStatus" ADD CONSTRAINT "NightscoutDeviceStatus_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
