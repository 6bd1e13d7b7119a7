import { z } from "zod";
import { idNumber, idParam } from "./fields";

/**
 * The caring pages' queries and forms. Messages are keys of the `sharing` namespace (the forms
 * act on shares), translated on display.
 */

/** `?page=`: a page of a caring list (1 when missing or not a page number). */
export const caringPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** `/{userId}/caringdetail`: the person's account id. */
export const caringDetailParams = z.object({ userId: idParam });

/** `/caringadd?by=`: the way of adding a person (by registered email unless `file`). */
export const caringAddQuery = z.object({
  by: z.enum(["email", "file"]).catch("email"),
});

/**
 * `/caringpedding`'s forms: send a request again, or delete it (once confirmed). `id` is the
 * request's (the share row's) id.
 */
export const caringRequestAction = z.object({
  intent: z.enum(["sendAgain", "delete"], {
    errorMap: () => ({ message: "errors.readPowerIdRequired" }),
  }),
  id: idNumber("errors.readPowerIdRequired"),
});

/** `/caringpedding?confirm=`: the request whose deletion is being confirmed. */
export const caringConfirmQuery = z.object({ confirm: idParam.optional().catch(undefined) });
