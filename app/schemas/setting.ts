import { z } from "zod";
import type { NameStyle } from "~/report/pump-report";

/**
 * The settings page `/newsetting` (spec 2 sections 2-3; issue 7 "print settings"): units for
 * glucose, weight and height, and how the print reports look. One schema for the form in the
 * browser (conform) and in the action. Messages are keys of the `settings` namespace.
 */

export const ORIENTATIONS = ["portrait", "landscape"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
/** Report title alignment, indexed by the stored `nameStyle` (0 left, 1 centre, 2 right). */
export const NAME_STYLES = ["left", "center", "right"] as const;
export type NameStyleName = (typeof NAME_STYLES)[number];
/** The largest report logo accepted, in bytes (the page states it). */
export const LOGO_MAX_BYTES = 512 * 1024;

const withMessage = (message: string) => ({ errorMap: () => ({ message }) });

/** A two-choice unit setting sent as "0" or "1" (glucose: 0 mmol/L, 1 mg/dL; weight: kg, lb; height: cm, ft/in). */
const binaryCode = (message: string) => z.enum(["0", "1"], withMessage(message)).transform((v) => (v === "1" ? 1 : 0) as 0 | 1);

export const settingsSchema = z.object({
  unit: binaryCode("errors.unit"),
  weightUnit: binaryCode("errors.weightUnit"),
  heightUnit: binaryCode("errors.heightUnit"),
  orientation: z.enum(ORIENTATIONS, withMessage("errors.orientation")),
  nameStyle: z.enum(["0", "1", "2"], withMessage("errors.nameStyle")).transform((v) => Number(v) as NameStyle),
  // A checkbox: absent when off.
  splitLine: z
    .boolean(withMessage("errors.splitLine"))
    .optional()
    .transform((v) => v === true),
});
export type SettingsInput = z.output<typeof settingsSchema>;

/** The logo upload. Its bytes are checked for a raster image type when it is saved (app/utils/image-type.ts). */
export const logoSchema = z.object({
  logo: z.instanceof(File, { message: "errors.logoMissing" }).refine((file) => file.size <= LOGO_MAX_BYTES, "errors.logoTooLarge"),
});
