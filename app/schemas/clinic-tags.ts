import { z } from "zod";
import { idNumber, requiredMessage, safeText } from "./fields";

/**
 * The forms of a clinic's own patient tags (the tags page and the triage list's rows). Messages
 * are keys of the `triage` namespace (`locales/{lng}/triage.json`), translated on display.
 */

/** Longest tag name, characters. */
export const TAG_NAME_MAX = 30;
/** Tags one clinic may define. */
export const TAGS_PER_CLINIC = 20;

const tagName = safeText(requiredMessage("tags.errors.nameRequired"))
  .min(1, "tags.errors.nameRequired")
  .max(TAG_NAME_MAX, "tags.errors.nameTooLong");
const tagId = z.preprocess((v) => (v === "" ? undefined : v), idNumber("tags.errors.tagInvalid"));
const patientId = z.preprocess(
  (v) => (v === "" ? undefined : v),
  idNumber("tags.errors.patientInvalid"),
);

/** The tags page's forms (`intent`: create, rename, delete) and a row's (attach, detach). */
export const tagFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("create"), name: tagName }),
    z.object({ intent: z.literal("rename"), tagId, name: tagName }),
    z.object({ intent: z.literal("delete"), tagId }),
    z.object({ intent: z.literal("attach"), tagId, patientId }),
    z.object({ intent: z.literal("detach"), tagId, patientId }),
  ],
  { errorMap: () => ({ message: "tags.errors.intentInvalid" }) },
);
export type TagForm = z.infer<typeof tagFormSchema>;

/** A form's fields as the schema reads them (a repeated field: its first value). */
export function parseTagForm(form: FormData) {
  const fields: Record<string, string> = {};
  for (const key of ["intent", "name", "tagId", "patientId"]) {
    const value = form.get(key);
    if (typeof value === "string") fields[key] = value;
  }
  return tagFormSchema.safeParse(fields);
}
