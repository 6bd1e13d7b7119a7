import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { loader as findOption } from "~/routes/api.option.findOption";
import { db } from "~/utils/db.server";
import { getApi, type Handler } from "./api-client";
import ruOptions from "../../locales/ru/options.json";

describe("GET /api/option/findOption", () => {
  it("lists the 18 options of the three types from the migration, named in the caller's language", async () => {
    const user = await db().user.create({ data: { email: "options@test.diacare", identity: 1 } });
    const answer = await getApi(
      findOption as Handler,
      "/api/option/findOption",
      await createApiToken(user.id),
      { "Accept-Language": "ru" },
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toHaveLength(18);
    expect(
      answer.data
        .filter((o: { type: number }) => o.type === 0)
        .map((o: { code: string }) => o.code),
    ).toEqual(["type1", "type2", "gestational", "lada", "mody", "other_type"]);
    expect(answer.data.find((o: { code: string }) => o.code === "retinopathy")).toMatchObject({
      type: 2,
      name: ruOptions.names.retinopathy,
    });
  });

  it("needs a token", async () => {
    expect((await getApi(findOption as Handler, "/api/option/findOption")).code).toBe(800);
  });
});
