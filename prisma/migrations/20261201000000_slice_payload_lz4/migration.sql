-- Where the server has lz4 (PostgreSQL built with it, as Debian's is), slice payloads are
-- compressed with it: it compresses a slice of some 80 KB to about a fifth in a fraction of the
-- time pglz took, and the smaller value is less for PostgreSQL to cut into out-of-line chunks and
-- write. Without lz4 (the embedded database) they stay out of line, uncompressed.
DO $$
BEGIN
  ALTER TABLE "UploadSlice" ALTER COLUMN "payload" SET COMPRESSION lz4;
  ALTER TABLE "UploadSlice" ALTER COLUMN "payload" SET STORAGE EXTENDED;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
