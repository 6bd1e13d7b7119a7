/**
 * The HL7 FHIR CGM summary export through its two routes: `GET /api/fhir/cgm-summary` and the
 * AGP page's download `/{pid}/cgm-summary.json` (without the embedded PDF, which needs Chromium:
 * the end-to-end test downloads it with the PDF). Its figures are the AGP page's, its reads are
 * one access-log row each on the `fhir` channel, and refusals read and log nothing.
 */
import type { Bundle, Device, Observation } from "@medplum/fhirtypes";
import { beforeAll, describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import { createApiToken } from "~/models/api-token.server";
import type { AgpReport } from "~/report/agp-report";
import { CGM_PROFILES } from "~/report/fhir-cgm-summary";
import { roundHalfUp } from "~/report/units";
import { loader as agpprint } from "~/routes/$id.agpprint";
import { loader as cgmSummaryFile } from "~/routes/$id.cgm-summary[.]json";
import { loader as cgmSummaryApi } from "~/routes/api.fhir.cgm-summary";
import { db } from "~/utils/db.server";
import { documented } from "../support/api-contract";
import { callPage, cookieFor, seedCgmWave, cgmPeople } from "./report-support";
import enReports from "../../locales/en/reports.json";
import enViews from "../../locales/en/views.json";

const ZONE = "Europe/Warsaw";
const FROM = "2026-09-01";
const TO = "2026-09-07";
const at = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(ZONE);

// Every answer (the Bundle, or a refusal's envelope) is checked against the API document first.
const checkedApi = documented(cgmSummaryApi);
const api = (query: Record<string, string>, headers: Record<string, string>) =>
  checkedApi({
    request: new Request(`http://localhost/api/fhir/cgm-summary?${new URLSearchParams(query)}`, {
      headers,
    }),
    params: {},
    context: {},
  }).catch((thrown: unknown) => thrown as Response);

const file = async (userId: number, pid: number, query: Record<string, string>) =>
  cgmSummaryFile({
    request: new Request(`http://localhost/${pid}/cgm-summary.json?${new URLSearchParams(query)}`, {
      headers: { Cookie: await cookieFor(userId) },
    }),
    params: { id: String(pid) },
    context: {},
  });

const envelope = async (response: Response) =>
  (await response.json()) as { code: number; msg: string; data: unknown };

const fill = (text: string, values: Record<string, unknown>) =>
  text.replace(/{{(\w+)}}/g, (_, k: string) => String(values[k]));

const fhirRows = (patientId: number) =>
  db().auditLog.findMany({ where: { patientId, channel: "fhir" }, orderBy: { id: "asc" } });

function members(bundle: Bundle) {
  const of = (profile: string) =>
    bundle.entry!.map((e) => e.resource!).find((r) => r.meta?.profile?.includes(profile)) as
      Observation | undefined;
  return {
    meanMass: of(CGM_PROFILES.meanMass)!.valueQuantity!.value,
    meanMoles: of(CGM_PROFILES.meanMoles)!.valueQuantity!.value,
    gmi: of(CGM_PROFILES.gmi)!.valueQuantity!.value,
    cv: of(CGM_PROFILES.cv)!.valueQuantity!.value,
    daysOfWear: of(CGM_PROFILES.daysOfWear)!.valueQuantity!.value,
    activePercent: of(CGM_PROFILES.activePercent)!.valueQuantity!.value,
    bands: of(CGM_PROFILES.timesInRanges)!.component!.map((c) => c.valueQuantity!.value),
    period: of(CGM_PROFILES.summary)!.effectivePeriod,
  };
}

/** What the Bundle must carry for the AGP page's report: its figures at the export's decimals. */
function figuresOf(report: Pick<AgpReport, "from" | "to" | "statistics" | "timeInRanges">) {
  const band = (key: string) => report.timeInRanges.bands.find((b) => b.key === key)!.percent;
  const mean = report.statistics.mean.value!;
  return {
    meanMass: roundHalfUp(mean, 1),
    meanMoles: roundHalfUp(mean / 18, 2),
    gmi: roundHalfUp(report.statistics.gmi.value!, 2),
    cv: roundHalfUp(report.statistics.cv.value!, 2),
    activePercent: roundHalfUp(report.statistics.activePercent.value!, 2),
    bands: ["veryLow", "low", "inRange", "high", "veryHigh"].map((k) => roundHalfUp(band(k), 2)),
    period: { start: report.from, end: report.to },
  };
}

describe("the HL7 FHIR CGM summary export", () => {
  let s: Awaited<ReturnType<typeof cgmPeople>>;
  let token: string;
  beforeAll(async () => {
    s = await cgmPeople("fhir.test", ZONE);
    // Six days of readings from 2026-09-01 00:00: 2026-09-01..06 full, none on the 7th.
    await seedCgmWave(s.full, at(FROM, "00:00"), at(FROM, "00:00").add({ days: 6 }));
    await seedCgmWave(s.short, at(FROM, "00:00"), at(FROM, "00:00").add({ days: 4 }));
    await db().device.create({
      data: { kind: "aidex", serial: `cgm-${s.full}`, patientId: s.full, model: null },
    });
    token = await createApiToken(s.clinic.id);
  });

  it("GET /api/fhir/cgm-summary answers the Bundle (application/fhir+json) with the AGP page's figures", async () => {
    const response = await api({ pid: String(s.full), start: FROM, end: TO }, { token });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/fhir+json; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBeNull();
    const bundle = (await response.json()) as Bundle;
    expect([bundle.resourceType, bundle.type]).toEqual(["Bundle", "transaction"]);

    const page = await callPage(
      agpprint,
      "agpprint",
      s.clinic.id,
      s.full,
      `?start=${FROM}&end=${TO}`,
    );
    const shown = page.report!;
    const got = members(bundle);
    expect({ ...got, daysOfWear: undefined }).toEqual({
      ...figuresOf(shown as unknown as AgpReport),
      daysOfWear: undefined,
    });
    // Readings on six local days (2026-09-01..06), by construction of the seed.
    expect(got.daysOfWear).toBe(6);
    expect(got.period).toEqual({ start: FROM, end: TO });
    // The page's own rounding of the same figures (1 decimal) agrees with the Bundle's.
    expect(roundHalfUp(got.bands[2]!, 0)).toBe(
      roundHalfUp(shown.timeInRanges.bands.find((b) => b.key === "inRange")!.percent, 0),
    );

    const resources = bundle.entry!.map((e) => e.resource!);
    expect(resources.map((r) => r.resourceType)).toEqual([
      "Patient",
      "Device",
      ...Array(8).fill("Observation"),
    ]);
    expect(resources[0]).toMatchObject({
      name: [{ family: "Cgmfull", given: ["Ada"] }],
      gender: "female",
      birthDate: "1975-05-05",
    });
    expect((resources[1] as Device).deviceName).toEqual([
      { name: "MicroTech Medical AiDEX CGM", type: "user-friendly-name" },
    ]);
    expect((resources[1] as Device).serialNumber).toBe(`cgm-${s.full}`);
  });

  it("each export is one access-log row on the fhir channel; a stranger gets 404 and nothing is written", async () => {
    const before = await fhirRows(s.full);
    const ok = await api({ pid: String(s.full), start: FROM, end: TO }, { token });
    expect(ok.status).toBe(200);
    const added = (await fhirRows(s.full)).slice(before.length);
    expect(added.map((r) => [r.action, r.channel, r.actorId, r.detail])).toEqual([
      ["read:cgmSummary", "fhir", s.clinic.id, { start: FROM, end: TO }],
    ]);

    const count = await db().auditLog.count({ where: { patientId: s.full } });
    const stranger = await api(
      { pid: String(s.full), start: FROM, end: TO },
      { token: await createApiToken(s.stranger.id) },
    );
    expect((await envelope(stranger)).code).toBe(404);
    const missing = await api({ pid: String(s.full + 100_000), start: FROM, end: TO }, { token });
    expect((await envelope(missing)).code).toBe(404);
    const signedOut = await api({ pid: String(s.full), start: FROM, end: TO }, {});
    expect((await envelope(signedOut)).code).toBe(800);
    expect(await db().auditLog.count({ where: { patientId: s.full } })).toBe(count);
  });

  it("bad input is a translated 400 that reads nothing: too few full days, a range past 14 days, pdf=2, pdf=1 with a token", async () => {
    const short = await envelope(
      await api({ pid: String(s.short), start: FROM, end: TO }, { token }),
    );
    expect([short.code, short.msg]).toEqual([
      400,
      fill(enReports.agp.insufficient_other, {
        from: "2026/09/01",
        to: "2026/09/07",
        fullDays: 4,
        requiredFullDays: 5,
        count: 7,
        percent: 70,
      }),
    ]);
    const count = await db().auditLog.count({ where: { patientId: s.full } });
    const tooLong = await envelope(
      await api({ pid: String(s.full), start: FROM, end: "2026-09-20" }, { token }),
    );
    expect([tooLong.code, tooLong.msg]).toEqual([400, enViews.problems.tooLong14]);
    const flag = await envelope(
      await api({ pid: String(s.full), start: FROM, end: TO, pdf: "2" }, { token }),
    );
    expect([flag.code, flag.msg]).toEqual([400, enReports.fhir.pdfFlag]);
    const pdfWithToken = await envelope(
      await api({ pid: String(s.full), start: FROM, end: TO, pdf: "1" }, { token }),
    );
    expect([pdfWithToken.code, pdfWithToken.msg]).toEqual([400, enReports.fhir.pdfNeedsSession]);
    const noPid = await envelope(await api({ start: FROM, end: TO }, { token }));
    expect(noPid.code).toBe(400);
    expect(await db().auditLog.count({ where: { patientId: s.full } })).toBe(count);
  });

  it("the page's download (pdf=0): the same Bundle as a cgm-summary-<last day>.json file; 403 for a stranger", async () => {
    const before = await fhirRows(s.full);
    const response = await file(s.clinic.id, s.full, { start: FROM, end: TO, pdf: "0" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="cgm-summary-2026-09-07.json"',
    );
    const bundle = (await response.json()) as Bundle;
    const viaApi = (await (
      await api({ pid: String(s.full), start: FROM, end: TO }, { token })
    ).json()) as Bundle;
    expect(members(bundle)).toEqual(members(viaApi));
    expect(bundle.entry!.some((e) => e.resource!.resourceType === "DiagnosticReport")).toBe(false);
    const added = (await fhirRows(s.full)).slice(before.length);
    expect(added.map((r) => [r.action, r.channel])).toEqual([
      ["read:cgmSummary", "fhir"],
      ["read:cgmSummary", "fhir"],
    ]);

    const count = await db().auditLog.count({ where: { patientId: s.full } });
    expect((await file(s.stranger.id, s.full, { start: FROM, end: TO, pdf: "0" })).status).toBe(
      403,
    );
    const bad = await file(s.clinic.id, s.full, { start: FROM, end: "2026-09-20", pdf: "0" });
    expect([bad.status, await bad.text()]).toEqual([400, enViews.problems.tooLong14]);
    expect(await db().auditLog.count({ where: { patientId: s.full } })).toBe(count);
  });

  it("the patient's own export, read in their access log in plain words", async () => {
    const own = await file(s.fullUser, s.full, { start: FROM, end: TO, pdf: "0" });
    expect(own.status).toBe(200);
    const last = await db().auditLog.findFirst({
      where: { patientId: s.full, actorId: s.fullUser },
      orderBy: { id: "desc" },
    });
    expect([last?.action, last?.channel]).toEqual(["read:cgmSummary", "fhir"]);
  });
});
