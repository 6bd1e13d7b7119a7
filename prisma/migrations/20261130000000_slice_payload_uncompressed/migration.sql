-- An upload's slices live only until their task is written, then are deleted: compressing each
-- slice's payload (some 80 KB of text) cost PostgreSQL about half of storing it, on the path of
-- every sliceSave answer. Stored out of line, uncompressed.
ALTER TABLE "UploadSlice" ALTER COLUMN "payload" SET STORAGE EXTERNAL;
