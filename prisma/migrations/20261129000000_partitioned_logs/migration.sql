-- The access log (AuditLog) and the upload error reports (UploadErrorLog) are partitioned by
-- month of their time column (docs/decisions/025-partitioned-logs.md): one partition per calendar
-- month (UTC), named <table>_yYYYYmMM, made ahead by the log-partitions job, plus a DEFAULT
-- partition so that an insert never fails; retention drops whole months. A partitioned table's
-- primary key must hold the partition key, so the keys become (id, at) and (id, createdAt).

-- Makes the partition of `parent` for the month that holds `month` (range [first day, first day
-- of the next month) of column `key`) unless it exists; rows of that month that the DEFAULT
-- partition caught move into it. Answers whether it made the partition.
CREATE FUNCTION "log_month_partition"(parent text, key text, month date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month)::date;
  next_day date := (date_trunc('month', month) + interval '1 month')::date;
  child text := parent || '_y' || to_char(first_day, 'YYYY') || 'm' || to_char(first_day, 'MM');
  caught boolean;
BEGIN
  -- Two servers making the same month at once: the second waits, then finds it made.
  PERFORM pg_advisory_xact_lock(hashtext('log_month_partition'));
  IF to_regclass(format('%I', child)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L AND %I < %L)',
    parent || '_default', key, first_day, key, next_day) INTO caught;
  IF caught THEN
    EXECUTE format('CREATE TEMP TABLE "log_partition_caught" (LIKE %I) ON COMMIT DROP', parent);
    EXECUTE format('WITH gone AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO "log_partition_caught" SELECT * FROM gone',
      parent || '_default', key, first_day, key, next_day);
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
    child, parent, first_day, next_day);
  IF caught THEN
    EXECUTE format('INSERT INTO %I SELECT * FROM "log_partition_caught"', parent);
    DROP TABLE "log_partition_caught";
  END IF;
  RETURN true;
END;
$$;

-- AuditLog: the old table's rows move into the partitioned one.
ALTER TABLE "AuditLog" RENAME TO "AuditLog_unpartitioned";
ALTER TABLE "AuditLog_unpartitioned" DROP CONSTRAINT "AuditLog_actorId_fkey";
ALTER TABLE "AuditLog_unpartitioned" DROP CONSTRAINT "AuditLog_patientId_fkey";
ALTER TABLE "AuditLog_unpartitioned" DROP CONSTRAINT "AuditLog_pkey";
DROP INDEX "AuditLog_patientId_at_idx";
DROP INDEX "AuditLog_actorId_at_idx";
ALTER SEQUENCE "AuditLog_id_seq" OWNED BY NONE;

CREATE TABLE "AuditLog" (
    "id" BIGINT NOT NULL DEFAULT nextval('"AuditLog_id_seq"'),
    "actorId" INTEGER,
    "patientId" INTEGER,
    "action" TEXT NOT NULL,
    "detail" JSONB,
    "ip" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "channel" "AccessChannel",

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id", "at")
) PARTITION BY RANGE ("at");
ALTER SEQUENCE "AuditLog_id_seq" OWNED BY "AuditLog"."id";
CREATE TABLE "AuditLog_default" PARTITION OF "AuditLog" DEFAULT;

-- A partition for every month (UTC) from the oldest row's to three months ahead.
SELECT "log_month_partition"('AuditLog', 'at', m::date)
  FROM generate_series(
    date_trunc('month', LEAST(COALESCE((SELECT min("at") FROM "AuditLog_unpartitioned"), (now() AT TIME ZONE 'UTC')), (now() AT TIME ZONE 'UTC'))),
    date_trunc('month', (now() AT TIME ZONE 'UTC')) + interval '3 months',
    interval '1 month') AS m;

INSERT INTO "AuditLog" ("id", "actorId", "patientId", "action", "detail", "ip", "at", "channel")
  SELECT "id", "actorId", "patientId", "action", "detail", "ip", "at", "channel" FROM "AuditLog_unpartitioned";
DROP TABLE "AuditLog_unpartitioned";

CREATE INDEX "AuditLog_patientId_at_idx" ON "AuditLog"("patientId", "at");
CREATE INDEX "AuditLog_actorId_at_idx" ON "AuditLog"("actorId", "at");
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- UploadErrorLog, the same way.
ALTER TABLE "UploadErrorLog" RENAME TO "UploadErrorLog_unpartitioned";
ALTER TABLE "UploadErrorLog_unpartitioned" DROP CONSTRAINT "UploadErrorLog_pkey";
DROP INDEX "UploadErrorLog_operatorUserId_createdAt_idx";
ALTER SEQUENCE "UploadErrorLog_id_seq" OWNED BY NONE;

CREATE TABLE "UploadErrorLog" (
    "id" INTEGER NOT NULL DEFAULT nextval('"UploadErrorLog_id_seq"'),
    "operatorUserId" INTEGER NOT NULL,
    "patientUserId" INTEGER,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UploadErrorLog_pkey" PRIMARY KEY ("id", "createdAt")
) PARTITION BY RANGE ("createdAt");
ALTER SEQUENCE "UploadErrorLog_id_seq" OWNED BY "UploadErrorLog"."id";
CREATE TABLE "UploadErrorLog_default" PARTITION OF "UploadErrorLog" DEFAULT;

SELECT "log_month_partition"('UploadErrorLog', 'createdAt', m::date)
  FROM generate_series(
    date_trunc('month', LEAST(COALESCE((SELECT min("createdAt") FROM "UploadErrorLog_unpartitioned"), (now() AT TIME ZONE 'UTC')), (now() AT TIME ZONE 'UTC'))),
    date_trunc('month', (now() AT TIME ZONE 'UTC')) + interval '3 months',
    interval '1 month') AS m;

INSERT INTO "UploadErrorLog" ("id", "operatorUserId", "patientUserId", "content", "createdAt")
  SELECT "id", "operatorUserId", "patientUserId", "content", "createdAt" FROM "UploadErrorLog_unpartitioned";
DROP TABLE "UploadErrorLog_unpartitioned";

CREATE INDEX "UploadErrorLog_operatorUserId_createdAt_idx" ON "UploadErrorLog"("operatorUserId", "createdAt");

-- The upload history pages by (createdAt, id) of one patient's tasks.
DROP INDEX "UploadTask_patientId_createdAt_idx";
CREATE INDEX "UploadTask_patientId_createdAt_id_idx" ON "UploadTask"("patientId", "createdAt", "id");
