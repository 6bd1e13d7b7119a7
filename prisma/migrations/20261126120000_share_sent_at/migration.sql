-- When a share request or invitation was last sent: one still waiting 14 days later has expired.
-- AlterTable
ALTER TABLE "ReadPower" ADD COLUMN "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- A waiting row was last sent no later than its last change, any other row when it was made.
UPDATE "ReadPower" SET "sentAt" = CASE WHEN state = 0 THEN "updatedAt" ELSE "createdAt" END;
