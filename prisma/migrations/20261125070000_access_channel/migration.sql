-- The channel of a read of patient data in the access log: page, API call or PDF download.
CREATE TYPE "AccessChannel" AS ENUM ('page', 'api', 'pdf');
ALTER TABLE "AuditLog" ADD COLUMN "channel" "AccessChannel";
