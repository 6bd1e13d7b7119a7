import { db } from "~/utils/db.server";

/** Disease options: type 0 type of diabetes, 1 basic disease, 2 complication. */
export async function listOptions() {
  return db().option.findMany({
    orderBy: [{ type: "asc" }, { sort: "asc" }],
    select: { id: true, type: true, code: true },
  });
}
