-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'editor', 'guest');

-- CreateEnum
CREATE TYPE "Gender" AS ENUM ('male', 'female', 'other', 'unknown');

-- CreateEnum
CREATE TYPE "Pronoun" AS ENUM ('he', 'she', 'they', 'other');

-- CreateEnum
CREATE TYPE "EmailCodePurpose" AS ENUM ('verify_email', 'activate', 'reset_password', 'change_email');

-- CreateEnum
CREATE TYPE "DeviceKind" AS ENUM ('equil', 'gocheck', 'aidex');

-- CreateEnum
CREATE TYPE "BgSource" AS ENUM ('meter', 'cgm_fingerprick', 'cgm_manual', 'pump', 'csv');

-- CreateEnum
CREATE TYPE "AlarmKind" AS ENUM ('low_insulin', 'no_insulin', 'occlusion', 'auto_off', 'low_power', 'no_power', 'suspend', 'high_glucose', 'low_glucose', 'very_low_glucose', 'other');

-- CreateEnum
CREATE TYPE "UploadStatus" AS ENUM ('open', 'processing', 'done', 'failed');

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT,
    "identity" INTEGER NOT NULL DEFAULT 1,
    "role" "Role" NOT NULL DEFAULT 'guest',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "isPass" INTEGER NOT NULL DEFAULT 0,
    "auditReason" TEXT,
    "firstName" TEXT,
    "middleName" TEXT,
    "lastName" TEXT,
    "userName" TEXT,
    "gender" "Gender",
    "pronoun" "Pronoun",
    "birthDate" DATE,
    "heightCm" DOUBLE PRECISION,
    "weightKg" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Patient" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "lowLimit" DOUBLE PRECISION NOT NULL DEFAULT 70,
    "highLimit" DOUBLE PRECISION NOT NULL DEFAULT 180,
    "diabetesTypeId" INTEGER,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "breakfastStart" INTEGER NOT NULL DEFAULT 21600,
    "breakfastEnd" INTEGER NOT NULL DEFAULT 36000,
    "lunchStart" INTEGER NOT NULL DEFAULT 39600,
    "lunchEnd" INTEGER NOT NULL DEFAULT 50400,
    "supperStart" INTEGER NOT NULL DEFAULT 61200,
    "supperEnd" INTEGER NOT NULL DEFAULT 72000,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Patient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Option" (
    "id" SERIAL NOT NULL,
    "type" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Option_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientCondition" (
    "patientId" INTEGER NOT NULL,
    "optionId" INTEGER NOT NULL,

    CONSTRAINT "PatientCondition_pkey" PRIMARY KEY ("patientId","optionId")
);

-- CreateTable
CREATE TABLE "Setting" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "lang" TEXT NOT NULL DEFAULT 'en',
    "unit" INTEGER NOT NULL DEFAULT 0,
    "weightUnit" INTEGER NOT NULL DEFAULT 0,
    "heightUnit" INTEGER NOT NULL DEFAULT 0,
    "reportLogo" BYTEA,
    "reportLogoType" TEXT,
    "nameStyle" INTEGER NOT NULL DEFAULT 0,
    "orientation" TEXT NOT NULL DEFAULT 'portrait',
    "splitLine" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Organisation" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "hospitalName" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "area" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "connectName" TEXT NOT NULL,
    "connectPhone" TEXT NOT NULL,
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewedAt" TIMESTAMP(3),
    "reviewedById" INTEGER,

    CONSTRAINT "Organisation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "userAgent" TEXT,

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmailCode" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "userId" INTEGER,
    "purpose" "EmailCodePurpose" NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "EmailCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "resetAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "ReadPower" (
    "id" SERIAL NOT NULL,
    "providerId" INTEGER NOT NULL,
    "readerId" INTEGER NOT NULL,
    "sourceType" INTEGER NOT NULL DEFAULT 0,
    "state" INTEGER NOT NULL DEFAULT 0,
    "isNew" INTEGER NOT NULL DEFAULT 0,
    "uploadIsNew" INTEGER NOT NULL DEFAULT 1,
    "nickName" TEXT,
    "message" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "ReadPower_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InviteToken" (
    "id" TEXT NOT NULL,
    "readPowerId" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "InviteToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Device" (
    "id" SERIAL NOT NULL,
    "kind" "DeviceKind" NOT NULL,
    "serial" TEXT NOT NULL,
    "patientId" INTEGER NOT NULL,
    "firstUploaderId" INTEGER,
    "firmware" TEXT,
    "model" TEXT,
    "timeZone" TEXT,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUploadAt" TIMESTAMP(3),

    CONSTRAINT "Device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PumpRecord" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "pdaSn" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "eventIndex" INTEGER NOT NULL,
    "eventPort" INTEGER NOT NULL,
    "eventType" INTEGER NOT NULL,
    "eventUrgency" INTEGER NOT NULL,
    "eventValue" INTEGER NOT NULL,
    "statusByte0" INTEGER NOT NULL,
    "statusByte1" INTEGER NOT NULL,
    "statusShort0" INTEGER NOT NULL,
    "statusShort1" INTEGER NOT NULL,
    "deviceTime" TEXT NOT NULL,
    "recordTimeZone" TEXT NOT NULL,
    "pdaRecordTimeZone" TEXT,
    "transDateTime" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "uploadId" INTEGER,

    CONSTRAINT "PumpRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CgmRecord" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "deviceSn" TEXT NOT NULL,
    "eventIndex" INTEGER NOT NULL,
    "historyId" INTEGER,
    "sensorIndex" INTEGER,
    "eventType" INTEGER NOT NULL,
    "eventData" DOUBLE PRECISION NOT NULL,
    "deviceTime" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "uploadId" INTEGER,

    CONSTRAINT "CgmRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BgRecord" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "source" "BgSource" NOT NULL,
    "deviceSn" TEXT NOT NULL,
    "recordKey" TEXT NOT NULL,
    "mgdl" DOUBLE PRECISION NOT NULL,
    "deviceTime" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "dataOrigin" INTEGER,
    "uploadId" INTEGER,

    CONSTRAINT "BgRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CarbEntry" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "grams" DOUBLE PRECISION NOT NULL,
    "pumpRecordId" BIGINT,

    CONSTRAINT "CarbEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlarmEvent" (
    "id" BIGSERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "dateTime" TIMESTAMP(3) NOT NULL,
    "kind" "AlarmKind" NOT NULL,
    "remark" TEXT,
    "pumpRecordId" BIGINT,

    CONSTRAINT "AlarmEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BasalSetting" (
    "id" SERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "pdaSn" TEXT NOT NULL,
    "settingIndex" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "valueArray" DOUBLE PRECISION[],
    "pdaVersion" TEXT,
    "pdaTimeZone" TEXT,
    "uploadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BasalSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PumpSetting" (
    "id" SERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "pdaSn" TEXT NOT NULL,
    "pdaVersion" TEXT,
    "lowBg" DOUBLE PRECISION[],
    "highBg" DOUBLE PRECISION[],
    "defaultCho" DOUBLE PRECISION[],
    "sensitiveSilver" DOUBLE PRECISION[],
    "originBasal" DOUBLE PRECISION,
    "bolusRate" DOUBLE PRECISION,
    "maxBolus" DOUBLE PRECISION,
    "doubleBolus" BOOLEAN,
    "effectiveTime" INTEGER,
    "maxBasalRate" DOUBLE PRECISION,
    "bolusIncrement" DOUBLE PRECISION,
    "quickBolusIncrement" DOUBLE PRECISION,
    "lowReserveThreshold" DOUBLE PRECISION,
    "tempBasalRate" DOUBLE PRECISION,
    "uploadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PumpSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UploadTask" (
    "id" SERIAL NOT NULL,
    "patientId" INTEGER NOT NULL,
    "uploaderId" INTEGER NOT NULL,
    "deviceKind" "DeviceKind" NOT NULL,
    "deviceSn" TEXT NOT NULL,
    "status" "UploadStatus" NOT NULL DEFAULT 'open',
    "sliceCount" INTEGER NOT NULL DEFAULT 0,
    "recordCount" INTEGER NOT NULL DEFAULT 0,
    "insertedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "UploadTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UploadSlice" (
    "id" SERIAL NOT NULL,
    "taskId" INTEGER NOT NULL,
    "sliceIndex" INTEGER NOT NULL,
    "recordCount" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadSlice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UploadErrorLog" (
    "id" SERIAL NOT NULL,
    "operatorUserId" INTEGER NOT NULL,
    "patientUserId" INTEGER,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadErrorLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "actorId" INTEGER,
    "patientId" INTEGER,
    "action" TEXT NOT NULL,
    "detail" JSONB,
    "ip" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "User_identity_idx" ON "User"("identity");

-- CreateIndex
CREATE UNIQUE INDEX "Patient_userId_key" ON "Patient"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Option_code_key" ON "Option"("code");

-- CreateIndex
CREATE INDEX "Option_type_sort_idx" ON "Option"("type", "sort");

-- CreateIndex
CREATE UNIQUE INDEX "Setting_userId_key" ON "Setting"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Organisation_userId_key" ON "Organisation"("userId");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "EmailCode_email_purpose_idx" ON "EmailCode"("email", "purpose");

-- CreateIndex
CREATE INDEX "ReadPower_readerId_state_idx" ON "ReadPower"("readerId", "state");

-- CreateIndex
CREATE UNIQUE INDEX "ReadPower_providerId_readerId_key" ON "ReadPower"("providerId", "readerId");

-- CreateIndex
CREATE UNIQUE INDEX "Device_kind_serial_key" ON "Device"("kind", "serial");

-- CreateIndex
CREATE INDEX "PumpRecord_patientId_dateTime_idx" ON "PumpRecord"("patientId", "dateTime");

-- CreateIndex
CREATE UNIQUE INDEX "PumpRecord_pdaSn_recordId_key" ON "PumpRecord"("pdaSn", "recordId");

-- CreateIndex
CREATE INDEX "CgmRecord_patientId_dateTime_idx" ON "CgmRecord"("patientId", "dateTime");

-- CreateIndex
CREATE UNIQUE INDEX "CgmRecord_deviceSn_eventIndex_key" ON "CgmRecord"("deviceSn", "eventIndex");

-- CreateIndex
CREATE INDEX "BgRecord_patientId_dateTime_idx" ON "BgRecord"("patientId", "dateTime");

-- CreateIndex
CREATE UNIQUE INDEX "BgRecord_deviceSn_source_recordKey_key" ON "BgRecord"("deviceSn", "source", "recordKey");

-- CreateIndex
CREATE UNIQUE INDEX "CarbEntry_pumpRecordId_key" ON "CarbEntry"("pumpRecordId");

-- CreateIndex
CREATE INDEX "CarbEntry_patientId_dateTime_idx" ON "CarbEntry"("patientId", "dateTime");

-- CreateIndex
CREATE UNIQUE INDEX "AlarmEvent_pumpRecordId_key" ON "AlarmEvent"("pumpRecordId");

-- CreateIndex
CREATE INDEX "AlarmEvent_patientId_dateTime_idx" ON "AlarmEvent"("patientId", "dateTime");

-- CreateIndex
CREATE UNIQUE INDEX "BasalSetting_pdaSn_settingIndex_key" ON "BasalSetting"("pdaSn", "settingIndex");

-- CreateIndex
CREATE UNIQUE INDEX "PumpSetting_pdaSn_key" ON "PumpSetting"("pdaSn");

-- CreateIndex
CREATE INDEX "PumpSetting_patientId_idx" ON "PumpSetting"("patientId");

-- CreateIndex
CREATE INDEX "UploadTask_patientId_createdAt_idx" ON "UploadTask"("patientId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "UploadSlice_taskId_sliceIndex_key" ON "UploadSlice"("taskId", "sliceIndex");

-- CreateIndex
CREATE INDEX "UploadErrorLog_operatorUserId_createdAt_idx" ON "UploadErrorLog"("operatorUserId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_patientId_at_idx" ON "AuditLog"("patientId", "at");

-- CreateIndex
CREATE INDEX "AuditLog_actorId_at_idx" ON "AuditLog"("actorId", "at");

-- AddForeignKey
ALTER TABLE "Patient" ADD CONSTRAINT "Patient_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Patient" ADD CONSTRAINT "Patient_diabetesTypeId_fkey" FOREIGN KEY ("diabetesTypeId") REFERENCES "Option"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientCondition" ADD CONSTRAINT "PatientCondition_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientCondition" ADD CONSTRAINT "PatientCondition_optionId_fkey" FOREIGN KEY ("optionId") REFERENCES "Option"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Setting" ADD CONSTRAINT "Setting_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Organisation" ADD CONSTRAINT "Organisation_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Organisation" ADD CONSTRAINT "Organisation_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EmailCode" ADD CONSTRAINT "EmailCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReadPower" ADD CONSTRAINT "ReadPower_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReadPower" ADD CONSTRAINT "ReadPower_readerId_fkey" FOREIGN KEY ("readerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteToken" ADD CONSTRAINT "InviteToken_readPowerId_fkey" FOREIGN KEY ("readPowerId") REFERENCES "ReadPower"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Device" ADD CONSTRAINT "Device_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PumpRecord" ADD CONSTRAINT "PumpRecord_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CgmRecord" ADD CONSTRAINT "CgmRecord_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BgRecord" ADD CONSTRAINT "BgRecord_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CarbEntry" ADD CONSTRAINT "CarbEntry_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlarmEvent" ADD CONSTRAINT "AlarmEvent_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BasalSetting" ADD CONSTRAINT "BasalSetting_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PumpSetting" ADD CONSTRAINT "PumpSetting_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UploadTask" ADD CONSTRAINT "UploadTask_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UploadTask" ADD CONSTRAINT "UploadTask_uploaderId_fkey" FOREIGN KEY ("uploaderId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UploadSlice" ADD CONSTRAINT "UploadSlice_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "UploadTask"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE SET NULL ON UPDATE CASCADE;

