-- A slice is written once and read once, whole: kept as the JSON text it was checked as. Parsing it
-- into jsonb and compressing it cost more per slice than the rest of storing it.
ALTER TABLE "UploadSlice" ALTER COLUMN "payload" TYPE TEXT USING "payload"::text;
ALTER TABLE "UploadSlice" ALTER COLUMN "payload" SET STORAGE EXTERNAL;
