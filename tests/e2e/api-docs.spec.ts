import { readdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { tr } from "./i18n";

/** The calls: the `/api/` route files, the catch-all 404 aside. */
const CALLS = readdirSync("app/routes").filter(
  (f) => f.startsWith("api.") && f !== "api.$.tsx",
).length;

const d = (key: string, lng: "en" | "pl" = "en") => tr(lng, key, "apidocs");

test.describe("the API reference", () => {
  test("/api/openapi.json is the OpenAPI 3.1 document of every call, without signing in", async ({
    request,
  }) => {
    const answer = await request.get("/api/openapi.json");
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toContain("application/json");
    const doc = await answer.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(CALLS).toBeGreaterThanOrEqual(53);
    expect(Object.keys(doc.paths)).toHaveLength(CALLS);
    expect(doc.paths["/api/user/login"].post["x-contract"]).toBe("spec");
    expect(doc.paths["/api/user/logout"].post["x-contract"]).toBe("own");
    expect(doc.paths["/api/patient/findOne"].get.security).toEqual([
      { token: [] },
      { session: [] },
    ]);
  });

  test("/api-docs shows each call with its marker, parameters, answer and codes", async ({
    page,
  }) => {
    const response = await page.goto("/api-docs");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(d("title"));
    await expect(page.getByTestId("api-call")).toHaveCount(CALLS);

    const sharing = page.getByRole("region", { name: d("areas.sharing") });
    await expect(sharing.getByRole("heading", { level: 2 })).toHaveText(d("areas.sharing"));
    const save = page.getByRole("article", { name: "POST /api/read-power/save" });
    await expect(save.getByText(d("contract.spec"), { exact: true })).toBeVisible();
    await expect(save.getByText(d("auth.token"), { exact: false })).toBeVisible();
    const params = save.getByRole("table", {
      name: tr("en", "parametersOf", "apidocs").replace("{{call}}", "POST /api/read-power/save"),
    });
    await expect(params.getByRole("rowheader", { name: "readId" })).toBeVisible();
    const codes = save.getByRole("table", {
      name: d("codesOf").replace("{{call}}", "POST /api/read-power/save"),
    });
    // 9999 (an inactive account) answers HTTP 403; a token code HTTP 401.
    await expect(codes.getByRole("row", { name: /^9999 403 / })).toBeVisible();
    await expect(codes.getByRole("row", { name: /^803 401 / })).toBeVisible();

    const own = page.getByRole("article", { name: "GET /api/cgms/cgm-record/findList" });
    await expect(own.getByText(d("contract.own"), { exact: true })).toBeVisible();

    const info = page.getByRole("article", { name: "GET /api/user/getUserInfo" });
    const fields = info.getByRole("table", {
      name: new RegExp(`^${d("answerOf").split("{{call}}")[0]}`),
    });
    await expect(fields.getByRole("rowheader", { name: "downLoadPercnet" })).toBeVisible();

    // The areas' links lead to their sections, and the document's link to the JSON.
    await page.getByRole("link", { name: d("areas.uploads") }).click();
    await expect(page).toHaveURL(/\/api-docs#uploads$/);
    await expect(page.getByRole("link", { name: "/api/openapi.json" })).toHaveAttribute(
      "href",
      "/api/openapi.json",
    );
  });

  test("the page is in the visitor's language and linked from /about", async ({ browser }) => {
    const context = await browser.newContext({
      locale: "pl",
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    });
    const page = await context.newPage();
    await page.goto("/about");
    await page.getByRole("link", { name: d("link", "pl") }).click();
    await expect(page).toHaveURL(/\/api-docs$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(d("title", "pl"));
    await expect(
      page.getByRole("heading", { level: 2, name: d("areas.sharing", "pl") }),
    ).toBeVisible();
    await context.close();
  });
});
