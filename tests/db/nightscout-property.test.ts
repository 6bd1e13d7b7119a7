import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { makeLink } from "~/services/nightscout.server";
import { db } from "~/utils/db.server";
import { nsCall, patientAccount, sha1, viewerOf } from "./nightscout-support";

// Properties of the Nightscout API over random posts: whatever the body (valid entries, broken
// ones, any JSON at all, text that is not JSON), the answer is never a server error; a post that
// is refused as a whole writes nothing; otherwise exactly the records answered are stored (each
// once), and posting the same body again stores nothing more.

const RUNS = Number(process.env.FUZZ_RUNS ?? 60) / 2;
const MIN = 60_000;

let pid: number;
let path: string;
let headers: Record<string, string>;

beforeAll(async () => {
  const patient = await patientAccount("property");
  pid = patient.pid;
  const link = (await makeLink(viewerOf(patient.user), pid, { name: "fuzz", kind: "upload" }))!;
  path = `/ns/${link.id}/api/v1`;
  headers = { "api-secret": sha1(link.secret) };
});

const stored = async () => {
  const [cgm, bg, carbs, insulin] = await Promise.all([
    db().cgmRecord.count({ where: { patientId: pid } }),
    db().bgRecord.count({ where: { patientId: pid } }),
    db().carbEntry.count({ where: { patientId: pid } }),
    db().insulinEntry.count({ where: { patientId: pid } }),
  ]);
  return cgm + bg + carbs + insulin;
};

/** A reading that passes: within the last 90 days, 10-600 mg/dL, its own second. */
const validEntry = fc.record({
  type: fc.constant("sgv"),
  sgv: fc.integer({ min: 10, max: 600 }),
  date: fc
    .integer({ min: 1, max: 80 * 24 * 60 })
    .map((m) => Math.floor(Date.now() / MIN) * MIN - m * MIN),
  direction: fc.constantFrom("Flat", "SingleUp", "bogus", undefined),
  device: fc.constantFrom("xDrip", "share2", "a b+c", ""),
});

/** Anything a client might send as a record. */
const anyRecord = fc.oneof(
  validEntry,
  fc.record(
    {
      type: fc.constantFrom("sgv", "mbg", "cal", "treatment", 7),
      sgv: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      mbg: fc.oneof(fc.integer({ min: -5, max: 900 }), fc.string()),
      date: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(1e300)),
      dateString: fc.string(),
      device: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
      direction: fc.string({ maxLength: 40 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

const anyTreatment = fc.record(
  {
    eventType: fc.constantFrom(
      "Meal Bolus",
      "Correction Bolus",
      "BG Check",
      "Temp Basal",
      "Note",
      "",
    ),
    insulin: fc.oneof(
      fc.double({ min: -10, max: 200, noNaN: true }),
      fc.constant(null),
      fc.string(),
    ),
    carbs: fc.oneof(fc.integer({ min: -10, max: 800 }), fc.constant(null)),
    glucose: fc.oneof(
      fc.double({ min: 0, max: 50, noNaN: true }),
      fc.integer({ min: 0, max: 900 }),
    ),
    units: fc.constantFrom("mmol", "mg/dl", "x"),
    created_at: fc.oneof(
      fc
        .integer({ min: 1, max: 100 * 24 * 60 })
        .map((m) => new Date(Date.now() - m * MIN).toISOString()),
      fc.string(),
    ),
    enteredBy: fc.string({ maxLength: 120 }),
  },
  { requiredKeys: [] },
);

describe("random posts", () => {
  it("entries: never a 5xx; a whole refusal writes nothing; the answered records are stored once; a repeat adds nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(anyRecord, { maxLength: 40 }),
          anyRecord,
          fc.string().map((s) => ({ raw: s })),
        ),
        async (body) => {
          const before = await stored();
          const raw = typeof body === "object" && body !== null && "raw" in body;
          const answer = await nsCall(`${path}/entries`, {
            body: raw ? (body as { raw: string }).raw : body,
            headers,
            method: "POST",
          });
          expect(answer.status).toBeLessThan(500);
          const after = await stored();
          if (answer.status !== 200) {
            expect(after).toBe(before);
            return;
          }
          const answered = answer.body as { _id: string }[];
          const refused = Number(answer.headers.get("DiaCare-Refused") ?? "0");
          const sent = Array.isArray(body) ? body.length : 1;
          expect(answered.length + refused).toBe(sent);
          // New rows are at most the distinct answered records (others were stored before).
          expect(after - before).toBeLessThanOrEqual(new Set(answered.map((a) => a._id)).size);
          const again = await nsCall(`${path}/entries`, { body, headers, method: "POST" });
          expect(again.status).toBe(200);
          expect(await stored()).toBe(after);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("treatments: never a 5xx, and a repeat adds nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyTreatment, { maxLength: 20 }), async (body) => {
        const answer = await nsCall(`${path}/treatments`, { body, headers });
        expect(answer.status).toBeLessThan(500);
        const after = await stored();
        const again = await nsCall(`${path}/treatments`, { body, headers });
        expect(again.status).toBeLessThan(500);
        expect(await stored()).toBe(after);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads: any query is answered without a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("entries.json", "entries/sgv.json", "treatments.json", "devicestatus.json"),
        fc.dictionary(
          fc.constantFrom(
            "count",
            "find[date][$gte]",
            "find[date][$lt]",
            "find[created_at][$gte]",
            "x",
          ),
          fc.oneof(fc.string(), fc.integer().map(String)),
        ),
        async (call, query) => {
          const answer = await nsCall(`${path}/${call}?${new URLSearchParams(query)}`, { headers });
          expect([200, 400]).toContain(answer.status);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
