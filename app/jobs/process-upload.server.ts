import { staleTasks } from "~/models/upload-task.server";
import { processTask } from "~/services/ingest.server";
import { logger } from "~/utils/logger.server";
import { sendJob, type JobDefinition } from "./queue.server";

/**
 * Sliced uploads are written by a job, so that a long upload never holds a request open and
 * survives a restart: the job may run on any server, runs again if its server dies (pg-boss
 * retries an expired job), and a sweep hands on tasks left waiting (a job that was never sent
 * because the server stopped between the commit and the send). Running a task twice is harmless:
 * the task is locked and a processed one is left alone.
 */
export const PROCESS_UPLOAD = "process-upload";
/** A task waiting this long for its job is handed to the queue again. */
export const STALE_TASK_MS = 2 * 60_000;
const SEND = { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 600 } as const;

/** Hands a task to the queue; when the queue cannot take it now, the sweep will. */
export async function enqueueUpload(taskId: number): Promise<void> {
  try {
    await sendJob(PROCESS_UPLOAD, { taskId }, SEND);
  } catch (error) {
    logger().warn(
      { taskId, err: error instanceof Error ? error.message : String(error) },
      "upload task not queued now; the sweep will queue it",
    );
  }
}

async function requeue(before: Date) {
  for (const taskId of await staleTasks(before)) await enqueueUpload(taskId);
}

export const processUploadJob: JobDefinition<{ taskId: number }> = {
  name: PROCESS_UPLOAD,
  async work({ taskId }) {
    const task = await processTask(taskId);
    if (task)
      logger().info(
        {
          taskId,
          status: task.status,
          inserted: task.insertedCount,
          duplicates: task.duplicateCount,
        },
        "upload processed",
      );
  },
  // After a restart every waiting task is handed on at once.
  onStart: () => requeue(new Date()),
};

export const resumeUploadsJob: JobDefinition = {
  name: "resume-uploads",
  cron: "* * * * *",
  work: () => requeue(new Date(Date.now() - STALE_TASK_MS)),
};
