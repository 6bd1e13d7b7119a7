-- Device records are unique per patient as well as per device, so that a device moved to another
-- patient keeps the records of both. The upload task carries the ingestion summary.
-- CreateEnum
CREATE TYPE "UploadChannel" AS ENUM ('slices', 'direct', 'csv', 'seed');

-- DropIndex
DROP INDEX "BasalSetting_pdaSn_settingIndex_key";

-- DropIndex
DROP INDEX "BgRecord_deviceSn_source_recordKey_key";

-- DropIndex
DROP INDEX "CgmRecord_deviceSn_eventIndex_key";

-- DropIndex
DROP INDEX "Device_kind_serial_key";

-- DropIndex
DROP INDEX "PumpRecord_pdaSn_recordId_key";

-- DropIndex
DROP INDEX "PumpSetting_patientId_idx";

-- DropIndex
DROP INDEX "PumpSetting_pdaSn_key";

-- AlterTable
ALTER TABLE "PumpRecord" ADD COLUMN     "bolusCheckFailed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "UploadTask" ADD COLUMN     "channel" "UploadChannel" NOT NULL DEFAULT 'slices',
ADD COLUMN     "dstGapCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "dstOverlapCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "duplicateCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "errorValues" JSONB,
ADD COLUMN     "expectedCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "firstAt" TIMESTAMP(3),
ADD COLUMN     "flaggedCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastAt" TIMESTAMP(3),
ADD COLUMN     "otherPatientDevice" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "pdaVersion" TEXT,
ADD COLUMN     "queuedAt" TIMESTAMP(3),
ADD COLUMN     "skippedCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE "UploadTask" ALTER COLUMN "timeZone" DROP DEFAULT;

-- CreateIndex
CREATE UNIQUE INDEX "BasalSetting_patientId_pdaSn_settingIndex_key" ON "BasalSetting"("patientId", "pdaSn", "settingIndex");

-- CreateIndex
CREATE UNIQUE INDEX "BgRecord_patientId_deviceSn_source_recordKey_key" ON "BgRecord"("patientId", "deviceSn", "source", "recordKey");

-- CreateIndex
CREATE UNIQUE INDEX "CgmRecord_patientId_deviceSn_eventIndex_key" ON "CgmRecord"("patientId", "deviceSn", "eventIndex");

-- CreateIndex
CREATE INDEX "Device_kind_serial_idx" ON "Device"("kind", "serial");

-- CreateIndex
CREATE UNIQUE INDEX "Device_patientId_kind_serial_key" ON "Device"("patientId", "kind", "serial");

-- CreateIndex
CREATE UNIQUE INDEX "PumpRecord_patientId_pdaSn_recordId_key" ON "PumpRecord"("patientId", "pdaSn", "recordId");

-- CreateIndex
CREATE UNIQUE INDEX "PumpSetting_patientId_pdaSn_key" ON "PumpSetting"("patientId", "pdaSn");

