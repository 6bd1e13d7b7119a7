-- The time zone an account without a health record chose for its own times (null: none, UTC).
-- AlterTable
ALTER TABLE "Setting" ADD COLUMN "timeZone" TEXT;
