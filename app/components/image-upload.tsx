import {
  FormProvider,
  getFormProps,
  getInputProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ZodTypeAny } from "zod";
import * as f from "~/styles/form.css";
import * as s from "~/styles/layout.css";
import { RASTER_IMAGE_TYPES } from "~/utils/image-type";
import { ConfirmStep, ErrorList, FormMessages } from "./form";

/** The texts of an image section, already translated. */
export type ImageUploadTexts = {
  title: string;
  current: string;
  none: string;
  file: string;
  hint: string;
  upload: string;
  remove: string;
  removeConfirm: string;
  removeYes: string;
  removeNo: string;
};

/**
 * One stored image of the user (the profile photo, the report logo): the current image or a line
 * saying there is none, an upload form (multipart; a refusal names the field, nothing else on the
 * page is lost), and removal asked on a second step (`?confirm=<removeIntent>`). The section is
 * the anchor `#<field>`; everything works without JavaScript.
 */
export function ImageUploadSection({
  field,
  page,
  schema,
  src,
  confirmRemove,
  answer,
  ns,
  imageClassName,
  texts,
}: {
  /** The form field and the section's anchor ("photo", "logo"); the upload's intent too. */
  field: string;
  /** The page the forms post to ("/account"). */
  page: string;
  schema: ZodTypeAny;
  src: string | null;
  confirmRemove: boolean;
  /** The action's answer when it was for this image. */
  answer: { result: SubmissionResult<string[]> | null; notice: string | null } | undefined;
  /** The namespace of the action's message keys. */
  ns: string;
  imageClassName: string;
  texts: ImageUploadTexts;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `${field}-upload`,
    lastResult: answer?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const file = fields[field]!;
  const busy = navigation.state !== "idle";
  const removeIntent = `remove${field[0]!.toUpperCase()}${field.slice(1)}`;
  const here = `${page}#${field}`;
  return (
    <section id={field} className={s.card} aria-labelledby={`${field}-title`}>
      <h2 id={`${field}-title`}>{texts.title}</h2>
      <FormMessages notice={answer?.notice} ns={ns} />
      {src ? (
        <img
          src={src}
          alt={texts.current}
          className={imageClassName}
          data-testid={`current-${field}`}
        />
      ) : (
        <p>{texts.none}</p>
      )}
      <FormProvider context={form.context}>
        <Form
          method="post"
          action={here}
          encType="multipart/form-data"
          {...getFormProps(form)}
          className={f.form}
        >
          <FormMessages errors={form.errors} ns={ns} />
          <div className={f.field}>
            <label htmlFor={file.id} className={f.label}>
              {texts.file}
            </label>
            <p id={`${file.id}-hint`} className={f.hint}>
              {texts.hint}
            </p>
            <input
              {...getInputProps(file, { type: "file", ariaDescribedBy: `${file.id}-hint` })}
              accept={RASTER_IMAGE_TYPES.join(",")}
              className={f.input}
            />
            <ErrorList id={file.errorId} errors={file.errors} ns={ns} />
          </div>
          <div>
            <button type="submit" name="intent" value={field} className={s.button} disabled={busy}>
              {texts.upload}
            </button>
          </div>
        </Form>
      </FormProvider>
      {src && confirmRemove ? (
        <ConfirmStep
          id={`${field}-remove-question`}
          message={texts.removeConfirm}
          intent={removeIntent}
          action={here}
          confirm={texts.removeYes}
          cancel={texts.removeNo}
          cancelTo={here}
          busy={busy}
        />
      ) : src ? (
        <div className={s.actions}>
          <Link to={`${page}?confirm=${removeIntent}#${field}`} className={s.buttonSecondary}>
            {texts.remove}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
