-- Imported files: another maker's device kind, carbohydrate entries keyed by their file's device and
-- line key (so that importing a file again adds nothing), insulin doses from pens and other pumps,
-- and the files read for a preview until the import is confirmed.
-- CreateEnum
CREATE TYPE "InsulinKind" AS ENUM ('rapid', 'long');
-- AlterEnum
ALTER TYPE "DeviceKind" ADD VALUE 'imported';
-- AlterTable
ALTER TABLE "CarbEntry" ADD COLUMN     "deviceSn" TEXT,
ADD COLUMN     "recordKey" TEXT,
ADD COLUMN     "uploadId" INTEGER;
-- CreateTable
CREATE TABLE "ImportDraft" (
    "id" SERIAL NOT NULL,
    "token" TEXT NOT NULL,
    "patientId" INTEGER NOT NULL,
    "uploaderId" INTEGER NOT NULL,
    "fileName" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "format" TEXT,
    "timeZone" TEXT NOT NULL,
    "dateOrder" TEXT,
    "columns" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ImportDraft_pkey" PRIMARY KEY ("id")
);
-- CreateTable
CREATE TABLE "InsulinEntry" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "deviceSn" TEXT NOT NULL,
    "recordKey" TEXT NOT NULL,
    "kind" "InsulinKind" NOT NULL,
    "units" DOUBLE PRECISION NOT NULL,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "uploadId" INTEGER,
    CONSTRAINT "InsulinEntry_pkey" PRIMARY KEY ("id")
);
-- CreateIndex
CREATE UNIQUE INDEX "ImportDraft_token_key" ON "ImportDraft"("token");
-- CreateIndex
CREATE INDEX "ImportDraft_createdAt_idx" ON "ImportDraft"("createdAt");
-- CreateIndex
CREATE INDEX "InsulinEntry_patientId_dateTime_idx" ON "InsulinEntry"("patientId", "dateTime");
-- CreateIndex
CREATE UNIQUE INDEX "InsulinEntry_patientId_deviceSn_recordKey_key" ON "InsulinEntry"("patientId", "deviceSn", "recordKey");
-- CreateIndex
CREATE UNIQUE INDEX "CarbEntry_patientId_deviceSn_recordKey_key" ON "CarbEntry"("patientId", "deviceSn", "recordKey");
-- AddForeignKey
ALTER TABLE "ImportDraft" ADD CONSTRAINT "ImportDraft_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- AddForeignKey
ALTER TABLE "ImportDraft" ADD CONSTRAINT "ImportDraft_uploaderId_fkey" FOREIGN KEY ("uploaderId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- AddForeignKey
ALTER TABLE "InsulinEntry" ADD CONSTRAINT "InsulinEntry_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;
