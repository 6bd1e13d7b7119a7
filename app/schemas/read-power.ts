import { z } from "zod";
import { Identity, ShareState } from "~/domain/codes";
import { blankToUndefined, flagNumber, idNumber, numberInput, numberOf, safeText } from "./fields";

/**
 * Validation of the sharing calls (share, invite, answer, update, delete, lists and search), shared
 * by the `/api/read-power/` routes and the forms of the patient area. Messages are keys of the
 * `sharing` namespace (`locales/{lng}/sharing.json`), translated on display.
 */

/** Page size of the patient lists and the search tables; larger requests get 10. */
export const SHARE_PAGE_SIZE = 10;
/** Shortest email fragment a user search accepts. */
export const SEARCH_MIN_LENGTH = 3;
export const NICKNAME_MAX = 50;
export const MESSAGE_MAX = 500;

const nullToUndefined = (value: unknown) => (value === null ? undefined : value);

const messageField = z.preprocess(
  nullToUndefined,
  safeText({ invalid_type_error: "errors.messageInvalid" }, { multiline: true })
    .max(MESSAGE_MAX, "errors.messageTooLong")
    .optional()
    .transform((v) => (v ? v : undefined)),
);

/** A nickname; "" is a value (update: clears it; approve: keeps the previous one). */
const nickNameField = z.preprocess(
  nullToUndefined,
  safeText({ invalid_type_error: "errors.nickNameInvalid" })
    .max(NICKNAME_MAX, "errors.nickNameTooLong")
    .optional(),
);

const stateField = z.preprocess(
  numberInput,
  numberOf("errors.stateInvalid").refine(
    (v) => v === ShareState.Accepted || v === ShareState.Refused,
    "errors.stateInvalid",
  ),
);

const pageNumber = (fallback: number) =>
  z.preprocess(
    numberInput,
    numberOf("errors.pageInvalid")
      .int("errors.pageInvalid")
      .min(1, "errors.pageInvalid")
      .max(100_000, "errors.pageInvalid")
      .default(fallback),
  );

const pageFields = {
  pageNum: pageNumber(1),
  pageSize: pageNumber(SHARE_PAGE_SIZE).transform((v) => Math.min(v, SHARE_PAGE_SIZE)),
};

/** GET findList: pageNum, pageSize, optional searchOption (name, email or nickname), tab me | others. */
export const findListQuery = z.object({
  ...pageFields,
  searchOption: z.preprocess(
    blankToUndefined,
    safeText({ invalid_type_error: "errors.searchTooLong" })
      .max(100, "errors.searchTooLong")
      .optional(),
  ),
  tab: z.preprocess(
    blankToUndefined,
    z.enum(["me", "others"], { errorMap: () => ({ message: "errors.tabInvalid" }) }).default("me"),
  ),
});

const searchField = (key: string) =>
  safeText({ required_error: key, invalid_type_error: key })
    .min(1, key)
    .pipe(
      z.string().min(SEARCH_MIN_LENGTH, "errors.searchTooShort").max(100, "errors.searchTooLong"),
    );

const searchType = z.preprocess(
  numberInput,
  numberOf("errors.typeInvalid")
    .refine((v) => v === Identity.Person || v === Identity.Clinic, "errors.typeInvalid")
    .optional(),
);

/** The "add share" drawer's search (identity 1): required, non-blank (addShareTxt). */
export const shareSearchSchema = z.object({
  ...pageFields,
  searchOption: searchField("errors.addShareTxt"),
  type: searchType,
});
/** The "add invite" drawer's search (identity 2, type 2): required, non-blank (addInviteTxt). */
export const inviteSearchSchema = z.object({
  ...pageFields,
  searchOption: searchField("errors.addInviteTxt"),
  type: searchType,
});

/** GET findShareList: the search of the caller's drawer. */
export function findShareListQuery(identity: number) {
  return identity === Identity.Clinic ? inviteSearchSchema : shareSearchSchema;
}

/**
 * The query of the "add share" / "add invite" drawer's own list: `sentPage`, the page of the
 * viewer's requests (1 when missing or not a page number). Not `page`, which pages the list
 * beside it.
 */
export const sentListQuery = z.object({
  sentPage: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** POST save: a patient shares their data with readId. */
export const saveShareSchema = z.object({
  readId: idNumber("errors.readIdRequired"),
  message: messageField,
});

/** POST invite: a clinic invites the patient provideId. */
export const inviteSchema = z.object({
  provideId: idNumber("errors.provideIdRequired"),
  message: messageField,
});

/** POST delete. */
export const deleteShareSchema = z.object({ readPowerId: idNumber("errors.readPowerIdRequired") });

/** POST update: at least one of nickName, isNew, uploadIsNew. */
export const updateShareSchema = z
  .object({
    readPowerId: idNumber("errors.readPowerIdRequired"),
    nickName: nickNameField,
    isNew: flagNumber("errors.flagInvalid"),
    uploadIsNew: flagNumber("errors.flagInvalid"),
  })
  .refine(
    (v) => v.nickName !== undefined || v.isNew !== undefined || v.uploadIsNew !== undefined,
    "errors.nothingToUpdate",
  );

/** POST reinvite. */
export const reinviteSchema = z.object({ id: idNumber("errors.idRequired") });

/** POST process: the recipient approves (1, optional nickname) or refuses (2). */
export const processShareSchema = z.object({
  id: idNumber("errors.idRequired"),
  state: stateField,
  message: messageField,
  nickName: nickNameField,
});

/** POST processFromEmail: the link value and the answer, without signing in. */
export const processFromEmailSchema = z.object({
  data: safeText({ required_error: "errors.linkInvalid", invalid_type_error: "errors.linkInvalid" })
    .min(1, "errors.linkInvalid")
    .max(300, "errors.linkInvalid"),
  state: stateField,
  message: messageField,
});

export type SaveShareInput = z.infer<typeof saveShareSchema>;
export type InviteInput = z.infer<typeof inviteSchema>;
export type UpdateShareInput = z.infer<typeof updateShareSchema>;
export type ProcessShareInput = z.infer<typeof processShareSchema>;
export type ProcessFromEmailInput = z.infer<typeof processFromEmailSchema>;
