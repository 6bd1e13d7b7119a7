-- PDF renders by the PDF worker (PDF_RENDERER=queue, docs/decisions/024-pdf-worker.md).

-- A render job's outcome, written once by the worker that ran the job and deleted by the app
-- server that takes it: the PDF, or the failure (code, message, the page's HTTP status).
CREATE TABLE "PdfResult" (
    "jobId" UUID NOT NULL,
    "pdf" BYTEA,
    "failure" JSONB,
    "workerId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PdfResult_pkey" PRIMARY KEY ("jobId"),
    CONSTRAINT "PdfResult_one_outcome" CHECK (("pdf" IS NULL) <> ("failure" IS NULL))
);

-- Results nobody took (the waiting server stopped) are swept by age.
CREATE INDEX "PdfResult_createdAt_idx" ON "PdfResult"("createdAt");

-- Each running PDF worker's heartbeat: readiness of the app servers asks for a recent one.
CREATE TABLE "PdfWorker" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rendered" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PdfWorker_pkey" PRIMARY KEY ("id")
);
