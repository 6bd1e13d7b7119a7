import { logPartitionsJob } from "./log-partitions.server";
import { processUploadJob, resumeUploadsJob } from "./process-upload.server";
import { purgeExpiredJob } from "./purge-expired.server";
import { startJobQueue, stopJobQueue, type JobDefinition } from "./queue.server";

/** Every background job of the app; the server starts them with the queue and stops them on shutdown. */
export const JOBS = [
  purgeExpiredJob,
  processUploadJob,
  resumeUploadsJob,
  logPartitionsJob,
] as JobDefinition[];

export async function startJobs(connectionString: string) {
  await startJobQueue(connectionString, JOBS);
}

export { stopJobQueue as stopJobs };
