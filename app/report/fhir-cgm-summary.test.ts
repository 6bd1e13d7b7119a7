import type { Bundle, DiagnosticReport, Observation, Patient } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import type { AgpReport } from "./agp-report";
import {
  buildCgmSummaryBundle,
  CGM_PROFILES,
  cgmSummaryFileName,
  cgmSummaryHref,
  type CgmSummaryInput,
} from "./fhir-cgm-summary";

/**
 * A hand-made AGP report: 48 readings of mean 150.63 mg/dL over 2026-05-01..2026-05-14, of which
 * 1 below 54 (2.0833 %), 2 at 54-69 (4.1667 %), 33 at 70-180 (68.75 %), 10 at 181-250
 * (20.8333 %) and 2 above 250 (4.1667 %); CV 33.3333 %, sensor active 97.2222 % (3500 of 3600
 * expected readings), GMI 3.31 + 0.02392 x 150.63 = 6.9130696 %, CGM data on 13 days.
 */
function report(overrides: Partial<AgpReport["statistics"]> = {}): AgpReport {
  const m = (value: number | null) => ({ value, sufficient: true });
  const bands = [
    { key: "veryHigh", percent: (2 / 48) * 100 },
    { key: "high", percent: (10 / 48) * 100 },
    { key: "inRange", percent: (33 / 48) * 100 },
    { key: "low", percent: (2 / 48) * 100 },
    { key: "veryLow", percent: (1 / 48) * 100 },
  ];
  return {
    from: "2026-05-01",
    to: "2026-05-14",
    dayCount: 14,
    fullDays: 12,
    daysWithData: 13,
    statistics: {
      readings: 48,
      mean: m(150.63),
      cv: m(100 / 3),
      gmi: m(3.31 + 0.02392 * 150.63),
      activePercent: m((3500 / 3600) * 100),
      ...overrides,
    },
    timeInRanges: { bands },
  } as unknown as AgpReport;
}

let uuids = 0;
function input(overrides: Partial<CgmSummaryInput> = {}): CgmSummaryInput {
  return {
    report: report(),
    patient: {
      pid: 42,
      firstName: "Anna",
      lastName: "Nowak",
      birthDate: "1980-02-29",
      gender: "female",
    },
    devices: [{ serial: "AX-1", name: "MicroTech Medical AiDEX CGM" }],
    pdfBase64: null,
    systems: {
      patient: "https://diacare.test/fhir/patient-id",
      device: "https://diacare.test/fhir/device-serial",
    },
    now: Date.UTC(2026, 4, 15, 8, 30),
    uuid: () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, "0")}`,
    ...overrides,
  };
}

const resources = (bundle: Bundle) => bundle.entry!.map((e) => e.resource!);
const byProfile = (bundle: Bundle, profile: string) =>
  resources(bundle).find((r) => r.meta?.profile?.includes(profile)) as Observation;

describe("buildCgmSummaryBundle", () => {
  it("is a CGM data submission transaction Bundle stamped with the given time", () => {
    const bundle = buildCgmSummaryBundle(input());
    expect(bundle.resourceType).toBe("Bundle");
    expect(bundle.type).toBe("transaction");
    expect(bundle.meta?.profile).toEqual([
      "http://hl7.org/fhir/uv/cgm/StructureDefinition/cgm-data-submission-bundle",
    ]);
    expect(bundle.timestamp).toBe("2026-05-15T08:30:00.000Z");
    // Patient, one device, the summary panel and its seven members.
    expect(resources(bundle).map((r) => r.resourceType)).toEqual([
      "Patient",
      "Device",
      "Observation",
      ...Array(7).fill("Observation"),
    ]);
    for (const entry of bundle.entry!)
      expect(entry.request).toMatchObject({ method: "POST", url: entry.resource!.resourceType });
  });

  it("names the patient and the device by the app's ids, created only when the receiver has none", () => {
    const bundle = buildCgmSummaryBundle(input());
    const [patient, device] = bundle.entry!;
    expect(patient!.resource).toEqual({
      resourceType: "Patient",
      identifier: [{ system: "https://diacare.test/fhir/patient-id", value: "42" }],
      name: [{ family: "Nowak", given: ["Anna"] }],
      gender: "female",
      birthDate: "1980-02-29",
    });
    expect(patient!.request!.ifNoneExist).toBe(
      "identifier=https://diacare.test/fhir/patient-id|42",
    );
    expect(device!.resource).toMatchObject({
      resourceType: "Device",
      meta: { profile: [CGM_PROFILES.device] },
      identifier: [{ system: "https://diacare.test/fhir/device-serial", value: "AX-1" }],
      deviceName: [{ name: "MicroTech Medical AiDEX CGM", type: "user-friendly-name" }],
      serialNumber: "AX-1",
      patient: { reference: patient!.fullUrl },
    });
    expect(device!.request!.ifNoneExist).toBe(
      "identifier=https://diacare.test/fhir/device-serial|AX-1",
    );
  });

  it("a patient without names, gender or birth date gets none of them", () => {
    const bundle = buildCgmSummaryBundle(
      input({
        patient: { pid: 7, firstName: null, lastName: null, birthDate: null, gender: null },
      }),
    );
    expect(bundle.entry![0]!.resource).toEqual({
      resourceType: "Patient",
      identifier: [{ system: "https://diacare.test/fhir/patient-id", value: "7" }],
    });
  });

  it("the summary panel (LOINC 107931-8) lists its seven members, each of the patient and the report's days", () => {
    const bundle = buildCgmSummaryBundle(input());
    const summary = byProfile(bundle, CGM_PROFILES.summary);
    expect(summary.code).toEqual({ coding: [{ system: "http://loinc.org", code: "107931-8" }] });
    expect(summary.status).toBe("final");
    const urls = new Map(bundle.entry!.map((e) => [e.fullUrl, e.resource]));
    const members = summary.hasMember!.map((m) => urls.get(m.reference!) as Observation);
    expect(members.map((m) => m.meta!.profile![0])).toEqual([
      CGM_PROFILES.meanMass,
      CGM_PROFILES.meanMoles,
      CGM_PROFILES.timesInRanges,
      CGM_PROFILES.gmi,
      CGM_PROFILES.cv,
      CGM_PROFILES.daysOfWear,
      CGM_PROFILES.activePercent,
    ]);
    const patientUrl = bundle.entry![0]!.fullUrl;
    for (const o of [summary, ...members]) {
      expect(o.subject).toEqual({ reference: patientUrl });
      expect(o.effectivePeriod).toEqual({ start: "2026-05-01", end: "2026-05-14" });
      expect(o.category![0]!.coding![0]!.code).toBe("laboratory");
    }
    // Every full URL is a distinct urn:uuid.
    const all = bundle.entry!.map((e) => e.fullUrl!);
    expect(new Set(all).size).toBe(all.length);
    for (const url of all) expect(url).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  });

  it("carries the report's figures in UCUM units, rounded to fixed decimals (computed by hand)", () => {
    const bundle = buildCgmSummaryBundle(input());
    const value = (profile: string) => byProfile(bundle, profile).valueQuantity;
    const ucum = "http://unitsofmeasure.org";
    expect(value(CGM_PROFILES.meanMass)).toEqual({
      value: 150.6,
      unit: "mg/dl",
      system: ucum,
      code: "mg/dL",
    });
    // 150.63 / 18 = 8.3683...
    expect(value(CGM_PROFILES.meanMoles)).toEqual({
      value: 8.37,
      unit: "mmol/l",
      system: ucum,
      code: "mmol/L",
    });
    expect(value(CGM_PROFILES.gmi)).toEqual({ value: 6.91, unit: "%", system: ucum, code: "%" });
    expect(value(CGM_PROFILES.cv)).toEqual({ value: 33.33, unit: "%", system: ucum, code: "%" });
    expect(value(CGM_PROFILES.daysOfWear)).toEqual({
      value: 13,
      unit: "days",
      system: ucum,
      code: "d",
    });
    expect(value(CGM_PROFILES.activePercent)).toEqual({
      value: 97.22,
      unit: "%",
      system: ucum,
      code: "%",
    });
    const tir = byProfile(bundle, CGM_PROFILES.timesInRanges);
    expect(tir.code!.coding![0]!.code).toBe("106793-3");
    expect(tir.valueQuantity).toBeUndefined();
    expect(
      tir.component!.map((c) => [
        c.code.coding![0]!.code,
        c.valueQuantity!.value,
        c.valueQuantity!.code,
      ]),
    ).toEqual([
      ["104642-4", 2.08, "%"],
      ["104641-6", 4.17, "%"],
      ["97510-2", 68.75, "%"],
      ["104640-8", 20.83, "%"],
      ["104639-0", 4.17, "%"],
    ]);
  });

  it("the member codes are the guide's LOINC codes", () => {
    const bundle = buildCgmSummaryBundle(input());
    const code = (profile: string) => byProfile(bundle, profile).code!.coding![0]!.code;
    expect([
      code(CGM_PROFILES.meanMass),
      code(CGM_PROFILES.meanMoles),
      code(CGM_PROFILES.gmi),
      code(CGM_PROFILES.cv),
      code(CGM_PROFILES.daysOfWear),
      code(CGM_PROFILES.activePercent),
    ]).toEqual(["97507-8", "105273-7", "97506-0", "104638-2", "104636-6", "104637-4"]);
  });

  it("a figure the report withholds is sent with a data-absent reason instead of a value", () => {
    const bundle = buildCgmSummaryBundle(
      input({ report: report({ gmi: { value: null, sufficient: false } }) }),
    );
    const gmi = byProfile(bundle, CGM_PROFILES.gmi);
    expect(gmi.valueQuantity).toBeUndefined();
    expect(gmi.dataAbsentReason!.coding![0]!.code).toBe("not-performed");
    expect(byProfile(bundle, CGM_PROFILES.cv).valueQuantity!.value).toBe(33.33);
  });

  it("without a PDF there is no DiagnosticReport; with one, a cgm-summary-pdf report whose result is the panel", () => {
    expect(
      resources(buildCgmSummaryBundle(input())).some((r) => r.resourceType === "DiagnosticReport"),
    ).toBe(false);
    const bundle = buildCgmSummaryBundle(input({ pdfBase64: "JVBERi0xLjAK" }));
    const entry = bundle.entry!.find((e) => e.resource!.resourceType === "DiagnosticReport")!;
    const pdf = entry.resource as DiagnosticReport;
    expect(pdf.meta!.profile).toEqual([CGM_PROFILES.pdf]);
    expect(pdf.code).toEqual({ coding: [{ system: "http://loinc.org", code: "107931-8" }] });
    expect(pdf.category![0]!.coding![0]).toEqual({
      system: "http://terminology.hl7.org/CodeSystem/v2-0074",
      code: "LAB",
    });
    expect(pdf.issued).toBe("2026-05-15T08:30:00.000Z");
    expect(pdf.presentedForm).toEqual([
      {
        contentType: "application/pdf",
        data: "JVBERi0xLjAK",
        title: "AGP 2026-05-01 – 2026-05-14",
      },
    ]);
    const summaryUrl = bundle.entry!.find((e) =>
      e.resource!.meta?.profile?.includes(CGM_PROFILES.summary),
    )!.fullUrl;
    expect(pdf.result).toEqual([{ reference: summaryUrl }]);
    expect((bundle.entry![0]!.resource as Patient).resourceType).toBe("Patient");
  });

  it("the file name and address of the page's download", () => {
    expect(cgmSummaryFileName({ to: "2026-05-14" })).toBe("cgm-summary-2026-05-14.json");
    expect(cgmSummaryHref(42, { start: "2026-05-01", end: "2026-05-14" })).toBe(
      "/42/cgm-summary.json?start=2026-05-01&end=2026-05-14",
    );
  });
});
