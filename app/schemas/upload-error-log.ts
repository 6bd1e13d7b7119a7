import { z } from "zod";
import { idNumber, INT4_MAX, numberInput, numberOf, requiredMessage, safeText } from "./fields";

/**
 * `POST /api/patient-data/uploadErrLog`: the upload wizard's error reports, `{ list: [{
 * operatorUserId, patientUserId, content }] }`. At most 250 reports a call, each at most 2048
 * characters of text (line breaks and tabs allowed, other control characters refused); the
 * patient is optional. Both objects are strict: a key they do not name is refused. Messages are
 * keys of the `api` namespace.
 */
export const UPLOAD_ERROR_LIST_MAX = 250;
export const UPLOAD_ERROR_CONTENT_MAX = 2048;

const report = z
  .object({
    operatorUserId: idNumber("uploadErrLog.operatorInvalid"),
    patientUserId: z.preprocess(
      numberInput,
      numberOf("uploadErrLog.patientInvalid")
        .int("uploadErrLog.patientInvalid")
        .min(1, "uploadErrLog.patientInvalid")
        .max(INT4_MAX, "uploadErrLog.patientInvalid")
        .optional(),
    ),
    content: safeText(requiredMessage("uploadErrLog.contentMissing"), { multiline: true })
      .min(1, "uploadErrLog.contentMissing")
      .max(UPLOAD_ERROR_CONTENT_MAX, "uploadErrLog.contentTooLong"),
  })
  .strict("uploadErrLog.unknownField");

export const uploadErrLogSchema = z
  .object({
    list: z
      .array(report, requiredMessage("uploadErrLog.listInvalid"))
      .min(1, "uploadErrLog.listInvalid")
      .max(UPLOAD_ERROR_LIST_MAX, "uploadErrLog.tooMany"),
  })
  .strict("uploadErrLog.unknownField");

export type UploadErrorReport = z.output<typeof report>;
