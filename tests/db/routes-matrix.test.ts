import { describe, expect, it } from "vitest";
import { loader as patientHome } from "~/routes/patientShow.$id.$userid.patientHome";
import { loader as uploadsPage } from "~/routes/patientShow.$id.$userid.uploads";
import { loader as sharePage } from "~/routes/patientShow.share.$id";
import { loader as accessLog } from "~/routes/patientShow.accessLog";
import { loader as auditsPage } from "~/routes/admin.audits";
import { loader as uploadErrorsPage } from "~/routes/admin.upload-errors";
import { db } from "~/utils/db.server";
import { cookieFor, statusOf } from "./report-support";

let n = 0;
async function scenario() {
  const tag = `${++n}-${Date.now()}`;
  const mk = (name: string, identity: 1 | 2, isPass = 1) =>
    db().user.create({
      data: {
        email: `${name}-${tag}@matrix.test`,
        identity,
        isPass,
        ...(identity === 1 ? { patient: { create: {} } } : {}),
      },
      include: { patient: true },
    });
  const owner = await mk("owner", 1);
  const viewers = {
    owner,
    accepted: await mk("accepted", 2),
    pending: await mk("pending", 2),
    refused: await mk("refused", 2),
    stranger: await mk("stranger", 1),
    unaudited: await mk("unaudited", 2, 3),
  };
  const share = (readerId: number, state: number) =>
    db().readPower.create({ data: { providerId: owner.id, readerId, sourceType: 1, state } });
  const acceptedRow = await share(viewers.accepted.id, 1);
  await share(viewers.pending.id, 0);
  await share(viewers.refused.id, 2);
  await share(viewers.unaudited.id, 1);
  return { owner, viewers, acceptedRow };
}

describe("patient pages: who gets what", () => {
  for (const [page, loader] of [
    ["patientHome", patientHome],
    ["uploads", uploadsPage],
  ] as const) {
    it(`the patient's ${page} page: owner and accepted reader 200; everyone else 404 (no existence leak); signed out to sign-in`, async () => {
      const { owner, viewers } = await scenario();
      const params = { id: String(owner.patient!.id), userid: String(owner.id) };
      const expected: Record<keyof typeof viewers, number> = {
        owner: 200,
        accepted: 200,
        pending: 404,
        refused: 404,
        stranger: 404,
        unaudited: 404,
      };
      for (const [who, user] of Object.entries(viewers)) {
        const request = new Request(
          `http://localhost/patientShow/${params.id}/${params.userid}/${page}`,
          { headers: { Cookie: await cookieFor(user.id) } },
        );
        expect([who, await statusOf(() => loader({ request, params, context: {} }))]).toEqual([
          who,
          expected[who as keyof typeof viewers],
        ]);
      }
      const guessed = { id: String(owner.patient!.id + 999), userid: String(owner.id) };
      const request = new Request("http://localhost/x", {
        headers: { Cookie: await cookieFor(viewers.accepted.id) },
      });
      expect(await statusOf(() => loader({ request, params: guessed, context: {} }))).toBe(404);
      // The patient's pid with another account's user id is not that patient's page.
      expect(
        await statusOf(() =>
          loader({
            request,
            params: { id: params.id, userid: String(viewers.accepted.id) },
            context: {},
          }),
        ),
      ).toBe(404);
      expect(
        await statusOf(() =>
          loader({ request: new Request("http://localhost/x"), params, context: {} }),
        ),
      ).toBe(302);
    });
  }

  it("opening the page is written to the access log, and the owner can read that log", async () => {
    const { owner, viewers } = await scenario();
    const params = { id: String(owner.patient!.id), userid: String(owner.id) };
    await patientHome({
      request: new Request("http://localhost/x", {
        headers: { Cookie: await cookieFor(viewers.accepted.id) },
      }),
      params,
      context: {},
    });
    const log = (await accessLog({
      request: new Request("http://localhost/patientShow/accessLog", {
        headers: { Cookie: await cookieFor(owner.id) },
      }),
      params: {},
      context: {},
    })) as { items: { what: string[]; who: string | null }[] };
    expect(log.items.map((i) => [i.what[0], i.who])).toContainEqual([
      "accessLog.actions.read_patientHome",
      viewers.accepted.email,
    ]);
    const readerCookie = await cookieFor(viewers.accepted.id);
    expect(
      await statusOf(() =>
        accessLog({
          request: new Request("http://localhost/x", { headers: { Cookie: readerCookie } }),
          params: {},
          context: {},
        }),
      ),
    ).toBe(403);
  });

  it("ids in page addresses that no row can have (2^31, text, signs, exponents) are a 404, never a 500", async () => {
    const { owner, viewers } = await scenario();
    const cookie = await cookieFor(viewers.accepted.id);
    for (const bad of ["2147483648", "99999999999", "1e3", "-1", "0", "0x10", "12abc"]) {
      const request = new Request("http://localhost/x", { headers: { Cookie: cookie } });
      expect([
        bad,
        await statusOf(() => sharePage({ request, params: { id: bad }, context: {} })),
      ]).toEqual([bad, 404]);
      expect([
        bad,
        await statusOf(() =>
          patientHome({ request, params: { id: bad, userid: String(owner.id) }, context: {} }),
        ),
      ]).toEqual([bad, 404]);
      expect([
        bad,
        await statusOf(() =>
          uploadsPage({
            request,
            params: { id: String(owner.patient!.id), userid: bad },
            context: {},
          }),
        ),
      ]).toEqual([bad, 404]);
    }
  });

  it("a share's page: only its two parties (an approved clinic) see it; others get the same 404 as a missing id", async () => {
    const { viewers, acceptedRow } = await scenario();
    const params = { id: String(acceptedRow.id) };
    const expected: Record<keyof typeof viewers, number> = {
      owner: 200,
      accepted: 200,
      pending: 404,
      refused: 404,
      stranger: 404,
      unaudited: 404,
    };
    for (const [who, user] of Object.entries(viewers)) {
      const request = new Request(`http://localhost/patientShow/share/${params.id}`, {
        headers: { Cookie: await cookieFor(user.id) },
      });
      expect([who, await statusOf(() => sharePage({ request, params, context: {} }))]).toEqual([
        who,
        expected[who as keyof typeof viewers],
      ]);
    }
    const request = new Request("http://localhost/x", {
      headers: { Cookie: await cookieFor(viewers.owner.id) },
    });
    expect(
      await statusOf(() => sharePage({ request, params: { id: "99999999" }, context: {} })),
    ).toBe(404);
    expect(await statusOf(() => sharePage({ request, params: { id: "abc" }, context: {} }))).toBe(
      404,
    );
  });
});

describe("staff pages: who gets what", () => {
  it("the audits and upload-error pages: admin and editor 200; a person, a clinic and an approved clinic 403; signed out to sign-in", async () => {
    const tag = `staff-${Date.now()}`;
    const mk = (name: string, identity: 1 | 2, role: "admin" | "editor" | "guest", isPass = 0) =>
      db().user.create({ data: { email: `${name}-${tag}@matrix.test`, identity, role, isPass } });
    const users = {
      admin: await mk("admin", 1, "admin"),
      editor: await mk("editor", 1, "editor"),
      person: await mk("person", 1, "guest"),
      clinic: await mk("clinic", 2, "guest", 1),
    };
    const expected: Record<keyof typeof users, number> = {
      admin: 200,
      editor: 200,
      person: 403,
      clinic: 403,
    };
    for (const [path, loader] of [
      ["/admin/audits", auditsPage],
      ["/admin/upload-errors", uploadErrorsPage],
    ] as const) {
      for (const [who, user] of Object.entries(users)) {
        const request = new Request(`http://localhost${path}`, {
          headers: { Cookie: await cookieFor(user.id) },
        });
        expect([
          path,
          who,
          await statusOf(() => loader({ request, params: {}, context: {} })),
        ]).toEqual([path, who, expected[who as keyof typeof users]]);
      }
      expect([
        path,
        await statusOf(() =>
          loader({ request: new Request(`http://localhost${path}`), params: {}, context: {} }),
        ),
      ]).toEqual([path, 302]);
    }
  });
});
