import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVisiblePatient, type Viewer } from "~/models/access.server";
import { createApiToken } from "~/models/api-token.server";
import { findShareForViewer } from "~/models/read-power-list.server";
import { action as deleteRoute } from "~/routes/api.read-power.delete";
import { loader as findListRoute } from "~/routes/api.read-power.findList";
import { loader as findShareListRoute } from "~/routes/api.read-power.findShareList";
import { action as inviteRoute } from "~/routes/api.read-power.invite";
import { action as processRoute } from "~/routes/api.read-power.process";
import { action as reinviteRoute } from "~/routes/api.read-power.reinvite";
import { action as saveRoute } from "~/routes/api.read-power.save";
import { action as updateRoute } from "~/routes/api.read-power.update";
import { db } from "~/utils/db.server";
import { closeMailTransport } from "~/utils/mail.server";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp-catcher";
import { getApi, postApi, type Answer, type Handler } from "./api-client";

// Who gets what: every sharing call that names a patient's share, and the patient lookup itself,
// for each kind of caller. A row id the caller is not part of and an id that does not exist
// must get the very same answer (no existence leak).

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher(); // reinvite sends an email
  process.env.SMTP_URL = catcher.url;
});

afterAll(async () => {
  closeMailTransport();
  await catcher.stop();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
});

const get = (handler: Handler, path: string, token: string | null) => getApi(handler, path, token);
const post = (handler: Handler, path: string, token: string | null, body: unknown) =>
  postApi(handler, path, body, token);

type Account = { id: number; pid: number | null; token: string; viewer: Viewer };
let serial = 0;

async function account(identity: 1 | 2, name: string, isPass = 0): Promise<Account> {
  serial += 1;
  const user = await db().user.create({
    data: {
      email: `${name}-${serial}@matrix.test`,
      identity,
      isPass,
      firstName: name,
      ...(identity === 1 ? { patient: { create: {} } } : {}),
    },
    include: { patient: true },
  });
  return {
    id: user.id,
    pid: user.patient?.id ?? null,
    token: await createApiToken(user.id),
    viewer: { id: user.id, identity, isPass, role: user.role },
  };
}

/**
 * One patient ("owner") and a reader of each kind:
 * accepted (person, share accepted), pending (person, share waiting), refused (approved clinic,
 * invitation refused), deleted (person whose accepted share was deleted), stranger (person, no
 * share), unaudited (clinic under review with an accepted invitation). Plus a share between two
 * other people (`others`), and an id that does not exist (`missing`).
 */
async function world() {
  const owner = await account(1, "owner");
  const accepted = await account(1, "accepted");
  const pending = await account(1, "pending");
  const refused = await account(2, "refused", 1);
  const deleted = await account(1, "deleted");
  const stranger = await account(1, "stranger");
  const unaudited = await account(2, "unaudited", 3);
  const extra = await account(1, "extra");
  const x = await account(1, "x");
  const y = await account(1, "y");
  const make = (provider: Account, reader: Account, sourceType: number, state: number) =>
    db()
      .readPower.create({
        data: { providerId: provider.id, readerId: reader.id, sourceType, state },
      })
      .then((r) => r.id);
  const rows = {
    accepted: await make(owner, accepted, 0, 1),
    pending: await make(owner, pending, 0, 0),
    refused: await make(owner, refused, 1, 2),
    deleted: await make(owner, deleted, 0, 1),
    unaudited: await make(owner, unaudited, 1, 1),
    extra: await make(owner, extra, 0, 1),
    others: await make(x, y, 0, 1),
    missing: 0,
  };
  expect(
    await post(deleteRoute as Handler, "/api/read-power/delete", deleted.token, {
      readPowerId: rows.deleted,
    }),
  ).toMatchObject({ code: 200 });
  const top = await db().readPower.aggregate({ _max: { id: true } });
  rows.missing = (top._max.id ?? 0) + 1000;
  const actors = { owner, accepted, pending, refused, deleted, stranger, unaudited };
  return { actors, rows, x };
}

type World = Awaited<ReturnType<typeof world>>;
type ActorName = keyof World["actors"] | "signedOut" | "badToken";
type RowName = keyof World["rows"];

const tokenOf = (w: World, actor: ActorName) =>
  actor === "signedOut" ? null : actor === "badToken" ? "not-a-token" : w.actors[actor].token;

/** Runs the cells in order (state-changing successes last) and answers "actor → row": code. */
async function matrix(
  w: World,
  cells: [ActorName, RowName][],
  run: (token: string | null, id: number) => Promise<Answer>,
) {
  const codes: Record<string, number> = {};
  const answers: Record<string, Answer> = {};
  for (const [actor, rowName] of cells) {
    const answer = await run(tokenOf(w, actor), w.rows[rowName]);
    codes[`${actor} → ${rowName}`] = answer.code;
    answers[`${actor} → ${rowName}`] = answer;
  }
  return { codes, answers };
}

/** A guessed id of someone else's row and an id that does not exist answer exactly alike. */
function expectNoLeak(answers: Record<string, Answer>, actors: ActorName[]) {
  for (const actor of actors) {
    const others = answers[`${actor} → others`];
    const missing = answers[`${actor} → missing`];
    expect(others, actor).toBeDefined();
    expect(others, actor).toEqual(missing);
    expect(others!.code, actor).toBe(403);
  }
}

const signedIn = [
  "owner",
  "accepted",
  "pending",
  "refused",
  "deleted",
  "stranger",
  "unaudited",
] as const;
const guesses = (actors: readonly ActorName[]): [ActorName, RowName][] =>
  actors.flatMap(
    (a) =>
      [
        [a, "others"],
        [a, "missing"],
      ] as [ActorName, RowName][],
  );

describe("findVisiblePatient (the patient lookup behind every patient page)", () => {
  it("owner and accepted reader see the patient; pending, refused, deleted, stranger and unaudited clinic do not", async () => {
    const w = await world();
    const owner = w.actors.owner;
    const seen: Record<string, boolean> = {};
    for (const actor of signedIn)
      seen[actor] =
        (await findVisiblePatient(w.actors[actor].viewer, owner.pid!, owner.id)) !== null;
    expect(seen).toEqual({
      owner: true,
      accepted: true,
      pending: false,
      refused: false,
      deleted: false,
      stranger: false,
      unaudited: false,
    });
  });

  it("guessed ids: another patient's pid, or a pid with the wrong user id, show nothing", async () => {
    const w = await world();
    const { owner, accepted } = w.actors;
    expect(await findVisiblePatient(accepted.viewer, w.x.pid!, w.x.id)).toBeNull();
    expect(await findVisiblePatient(accepted.viewer, owner.pid!, w.x.id)).toBeNull();
    expect(await findVisiblePatient(accepted.viewer, w.x.pid!, owner.id)).toBeNull();
    expect(await findVisiblePatient(accepted.viewer, owner.pid! + 10_000, owner.id)).toBeNull();
  });
});

describe("findShareForViewer (one share, for the share page)", () => {
  it("only the two sides of a row, never an unaudited clinic; guessed and missing ids alike", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ...guesses(signedIn),
      ["owner", "accepted"],
      ["accepted", "accepted"],
      ["pending", "pending"],
      ["refused", "refused"],
      ["deleted", "deleted"],
      ["stranger", "accepted"],
      ["unaudited", "unaudited"],
    ];
    const found: Record<string, string | null> = {};
    for (const [actor, rowName] of cells) {
      const item = await findShareForViewer(
        w.actors[actor as (typeof signedIn)[number]].viewer,
        w.rows[rowName],
      );
      found[`${actor} → ${rowName}`] = item ? `${item.readPowerId} ${item.name}` : null;
    }
    const { rows } = w;
    expect(found).toEqual({
      ...Object.fromEntries(guesses(signedIn).map(([a, r]) => [`${a} → ${r}`, null])),
      "owner → accepted": `${rows.accepted} accepted`, // the owner sees who reads
      "accepted → accepted": `${rows.accepted} owner`, // a reader sees whose data it is
      "pending → pending": `${rows.pending} owner`,
      "refused → refused": `${rows.refused} owner`,
      "deleted → deleted": null,
      "stranger → accepted": null,
      "unaudited → unaudited": null,
    });
  });
});

describe("GET findList", () => {
  it("tab 1 lists only the rows each caller may see", async () => {
    const w = await world();
    const result: Record<string, string> = {};
    for (const actor of [...signedIn, "signedOut", "badToken"] as ActorName[]) {
      const answer = await get(
        findListRoute as Handler,
        "/api/read-power/findList",
        tokenOf(w, actor),
      );
      const ids =
        answer.code === 200
          ? (answer.data.data as { readPowerId: number; state: number }[])
              .map((r) => `${r.readPowerId}:${r.state}`)
              .join(",")
          : "";
      result[actor] = `${answer.code} ${answer.code === 200 ? answer.data.count : "-"} [${ids}]`;
    }
    const { rows } = w;
    expect(result).toEqual({
      owner: "200 0 []",
      accepted: `200 1 [${rows.accepted}:1]`,
      pending: `200 1 [${rows.pending}:0]`,
      refused: `200 1 [${rows.refused}:2]`, // a clinic keeps its refused invitation (to reinvite)
      deleted: "200 0 []",
      stranger: "200 0 []",
      unaudited: "200 0 []",
      signedOut: "800 - []",
      badToken: "801 - []",
    });
  });

  it("tab 2 (shared with others) is the owner's alone, and for persons only", async () => {
    const w = await world();
    const result: Record<string, string> = {};
    for (const actor of [...signedIn, "signedOut", "badToken"] as ActorName[]) {
      const answer = await get(
        findListRoute as Handler,
        "/api/read-power/findList?tab=others",
        tokenOf(w, actor),
      );
      const ids =
        answer.code === 200
          ? (answer.data.data as { readPowerId: number }[])
              .map((r) => r.readPowerId)
              .sort((a, b) => a - b)
              .join(",")
          : "";
      result[actor] = `${answer.code} [${ids}]`;
    }
    const { rows } = w;
    const mine = [rows.accepted, rows.pending, rows.refused, rows.unaudited, rows.extra]
      .sort((a, b) => a - b)
      .join(",");
    expect(result).toEqual({
      owner: `200 [${mine}]`,
      accepted: "200 []",
      pending: "200 []",
      refused: "403 []",
      deleted: "200 []",
      stranger: "200 []",
      unaudited: "403 []",
      signedOut: "800 []",
      badToken: "801 []",
    });
  });
});

describe("POST update (uploadIsNew, the reader's field)", () => {
  it("only the reader of the row, and never an unaudited clinic", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ...guesses(signedIn),
      ["owner", "accepted"],
      ["deleted", "deleted"],
      ["unaudited", "unaudited"],
      ["signedOut", "accepted"],
      ["badToken", "accepted"],
      ["accepted", "accepted"],
      ["pending", "pending"],
      ["refused", "refused"],
    ];
    const { codes, answers } = await matrix(w, cells, (token, id) =>
      post(updateRoute as Handler, "/api/read-power/update", token, {
        readPowerId: id,
        uploadIsNew: 1,
      }),
    );
    expect(codes).toMatchObject({
      "owner → accepted": 403,
      "deleted → deleted": 403,
      "unaudited → unaudited": 403,
      "signedOut → accepted": 800,
      "badToken → accepted": 801,
      "accepted → accepted": 200,
      "pending → pending": 200,
      "refused → refused": 200,
    });
    expectNoLeak(answers, [...signedIn]);
    // The unaudited clinic hears the same for its own row as for guessed ones.
    expect(answers["unaudited → unaudited"]).toEqual(answers["unaudited → missing"]);
  });

  it("isNew is the recipient's: the owner for an invitation, the reader for a share", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ["owner", "pending"],
      ["refused", "refused"],
      ["owner", "refused"],
      ["pending", "pending"],
    ];
    const { codes } = await matrix(w, cells, (token, id) =>
      post(updateRoute as Handler, "/api/read-power/update", token, { readPowerId: id, isNew: 1 }),
    );
    expect(codes).toEqual({
      "owner → pending": 403,
      "refused → refused": 403,
      "owner → refused": 200,
      "pending → pending": 200,
    });
  });
});

describe("POST process", () => {
  it("only the recipient of a pending row", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ...guesses(signedIn),
      ["owner", "pending"],
      ["owner", "refused"],
      ["accepted", "accepted"],
      ["refused", "refused"],
      ["deleted", "deleted"],
      ["stranger", "pending"],
      ["unaudited", "unaudited"],
      ["signedOut", "pending"],
      ["badToken", "pending"],
      ["pending", "pending"],
    ];
    const { codes, answers } = await matrix(w, cells, (token, id) =>
      post(processRoute as Handler, "/api/read-power/process", token, { id, state: 1 }),
    );
    expect(codes).toMatchObject({
      "owner → pending": 403, // a share is the reader's to answer
      "owner → refused": 400, // the owner's to answer, but already answered
      "accepted → accepted": 400,
      "refused → refused": 403, // the inviting clinic is not the recipient
      "deleted → deleted": 403,
      "stranger → pending": 403,
      "unaudited → unaudited": 403,
      "signedOut → pending": 800,
      "badToken → pending": 801,
      "pending → pending": 200,
    });
    expectNoLeak(answers, [...signedIn]);
    expect(answers["stranger → pending"]).toEqual(answers["stranger → missing"]);
    expect(
      await findVisiblePatient(w.actors.pending.viewer, w.actors.owner.pid!, w.actors.owner.id),
    ).not.toBeNull();
  });
});

describe("POST reinvite", () => {
  it("only the clinic whose invitation was refused", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ...guesses(signedIn),
      ["owner", "refused"],
      ["accepted", "refused"],
      ["pending", "refused"],
      ["deleted", "refused"],
      ["stranger", "refused"],
      ["unaudited", "refused"],
      ["unaudited", "unaudited"],
      ["refused", "accepted"],
      ["signedOut", "refused"],
      ["badToken", "refused"],
      ["refused", "refused"],
    ];
    const { codes, answers } = await matrix(w, cells, (token, id) =>
      post(reinviteRoute as Handler, "/api/read-power/reinvite", token, { id }),
    );
    expect(codes).toMatchObject({
      "owner → refused": 403,
      "accepted → refused": 403,
      "pending → refused": 403,
      "deleted → refused": 403,
      "stranger → refused": 403,
      "unaudited → refused": 403,
      "unaudited → unaudited": 403,
      "refused → accepted": 403,
      "signedOut → refused": 800,
      "badToken → refused": 801,
      "refused → refused": 200,
    });
    expectNoLeak(answers, [...signedIn]);
    expect(answers["refused → accepted"]).toEqual(answers["refused → missing"]);
    expect(await db().readPower.findUnique({ where: { id: w.rows.refused } })).toMatchObject({
      state: 0,
    });
  });
});

describe("POST delete", () => {
  it("either side of a row; deleting ends access", async () => {
    const w = await world();
    const cells: [ActorName, RowName][] = [
      ...guesses(signedIn),
      ["stranger", "accepted"],
      ["deleted", "deleted"],
      ["signedOut", "accepted"],
      ["badToken", "accepted"],
      ["owner", "extra"],
      ["accepted", "accepted"],
      ["pending", "pending"],
      ["refused", "refused"],
      ["unaudited", "unaudited"],
    ];
    const { codes, answers } = await matrix(w, cells, (token, id) =>
      post(deleteRoute as Handler, "/api/read-power/delete", token, { readPowerId: id }),
    );
    expect(codes).toMatchObject({
      "stranger → accepted": 403,
      "deleted → deleted": 403,
      "signedOut → accepted": 800,
      "badToken → accepted": 801,
      "owner → extra": 200,
      "accepted → accepted": 200,
      "pending → pending": 200,
      "refused → refused": 200,
      "unaudited → unaudited": 200, // giving up a share needs no approved organisation
    });
    expectNoLeak(answers, [...signedIn]);
    expect(answers["stranger → accepted"]).toEqual(answers["stranger → missing"]);
    expect(await db().readPower.count({ where: { providerId: w.actors.owner.id } })).toBe(0);
    expect(await db().readPower.count({ where: { id: w.rows.others } })).toBe(1);
    expect(
      await findVisiblePatient(w.actors.accepted.viewer, w.actors.owner.pid!, w.actors.owner.id),
    ).toBeNull();
  });
});

describe("signed out or with a broken token, nothing answers but 800 / 801", () => {
  it("every token-protected sharing call", async () => {
    const calls: Record<string, (token: string | null) => Promise<Answer>> = {
      findList: (t) => get(findListRoute as Handler, "/api/read-power/findList", t),
      findShareList: (t) =>
        get(findShareListRoute as Handler, "/api/read-power/findShareList?searchOption=abc", t),
      save: (t) => post(saveRoute as Handler, "/api/read-power/save", t, { readId: 1 }),
      invite: (t) => post(inviteRoute as Handler, "/api/read-power/invite", t, { provideId: 1 }),
      update: (t) =>
        post(updateRoute as Handler, "/api/read-power/update", t, {
          readPowerId: 1,
          nickName: "x",
        }),
      delete: (t) => post(deleteRoute as Handler, "/api/read-power/delete", t, { readPowerId: 1 }),
      process: (t) =>
        post(processRoute as Handler, "/api/read-power/process", t, { id: 1, state: 1 }),
      reinvite: (t) => post(reinviteRoute as Handler, "/api/read-power/reinvite", t, { id: 1 }),
    };
    const result: Record<string, string> = {};
    for (const [name, run] of Object.entries(calls)) {
      const none = await run(null);
      const bad = await run("short");
      result[name] = `${none.status}/${none.code} ${bad.status}/${bad.code}`;
    }
    expect(result).toEqual(
      Object.fromEntries(Object.keys(calls).map((name) => [name, "401/800 401/801"])),
    );
  });
});
