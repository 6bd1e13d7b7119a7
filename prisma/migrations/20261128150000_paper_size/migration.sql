-- The reports' paper size: "a4" (210 x 297 mm) or "letter" (US Letter, 8.5 x 11 in).
ALTER TABLE "Setting" ADD COLUMN "paperSize" TEXT NOT NULL DEFAULT 'a4';
