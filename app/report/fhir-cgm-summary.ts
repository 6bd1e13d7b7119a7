/**
 * The AGP report's figures as an HL7 FHIR R4 Bundle that follows the HL7 FHIR Continuous Glucose
 * Monitoring implementation guide 1.0.0 (STU 1, http://hl7.org/fhir/uv/cgm/): a CGM data
 * submission Bundle (type `transaction`) holding
 *
 * - the Patient and the CGM Device(s) the readings came from (conditional creates, so that a
 *   receiver that already knows them keeps one copy);
 * - the CGM summary panel Observation (LOINC 107931-8) whose `hasMember` names one Observation
 *   per figure: mean glucose in mg/dL (97507-8) and in mmol/L (105273-7), times in ranges
 *   (106793-3, with the five bands as components), GMI (97506-0), coefficient of variation
 *   (104638-2), days of wear (104636-6) and sensor active percentage (104637-4);
 * - optionally the AGP page as a PDF: the guide carries it as a DiagnosticReport of the
 *   `cgm-summary-pdf` profile (code 107931-8, the PDF base64 in `presentedForm.data`), whose
 *   `result` is the summary panel.
 *
 * Every resource names its profile in `meta.profile`; quantities are UCUM (`mg/dL`, `mmol/L`,
 * `%`, `d`) with the display units the guide's profiles fix (`mg/dl`, `mmol/l`, `%`, `days`).
 * The figures are the AGP report model's (app/report/agp-report.ts) unrounded values, rounded
 * here only to fixed decimals: glucose mg/dL to 0.1, mmol/L (mg/dL / 18) to 0.01, percentages to
 * 0.01 (the guide asks times in ranges to at least two decimals), days whole. A figure the model
 * withholds (null) is sent as the Observation with a `dataAbsentReason` instead of a value.
 * The reporting period is the report's first and last local day (`effectivePeriod` as dates).
 *
 * Pure: ids and the clock come from the caller.
 */
import type {
  Bundle,
  BundleEntry,
  CodeableConcept,
  Device,
  DiagnosticReport,
  Observation,
  ObservationComponent,
  Patient,
  Quantity,
  Reference,
  Resource,
} from "@medplum/fhirtypes";
import type { MetricResult } from "../metrics/types";
import type { AgpBandKey, AgpReport } from "./agp-report";
import { roundHalfUp } from "./units";

/** The guide's canonical base. */
export const CGM_IG = "http://hl7.org/fhir/uv/cgm";

/** The guide's profiles used here, by resource. */
export const CGM_PROFILES = {
  bundle: `${CGM_IG}/StructureDefinition/cgm-data-submission-bundle`,
  summary: `${CGM_IG}/StructureDefinition/cgm-summary`,
  meanMass: `${CGM_IG}/StructureDefinition/cgm-summary-mean-glucose-mass-per-volume`,
  meanMoles: `${CGM_IG}/StructureDefinition/cgm-summary-mean-glucose-moles-per-volume`,
  timesInRanges: `${CGM_IG}/StructureDefinition/cgm-summary-times-in-ranges`,
  gmi: `${CGM_IG}/StructureDefinition/cgm-summary-gmi`,
  cv: `${CGM_IG}/StructureDefinition/cgm-summary-coefficient-of-variation`,
  daysOfWear: `${CGM_IG}/StructureDefinition/cgm-summary-days-of-wear`,
  activePercent: `${CGM_IG}/StructureDefinition/cgm-summary-sensor-active-percentage`,
  pdf: `${CGM_IG}/StructureDefinition/cgm-summary-pdf`,
  device: `${CGM_IG}/StructureDefinition/cgm-device`,
} as const;

export const LOINC = "http://loinc.org";
export const UCUM = "http://unitsofmeasure.org";

/** The guide's LOINC codes. */
export const CGM_CODES = {
  summary: "107931-8",
  meanMass: "97507-8",
  meanMoles: "105273-7",
  timesInRanges: "106793-3",
  gmi: "97506-0",
  cv: "104638-2",
  daysOfWear: "104636-6",
  activePercent: "104637-4",
} as const;

/**
 * The times-in-ranges components, as the guide names them, with the AGP band each carries:
 * very low < 54, low 54-69, target 70-180, high 181-250, very high > 250 mg/dL.
 */
export const TIME_IN_RANGE_CODES: readonly { readonly band: AgpBandKey; readonly code: string }[] =
  [
    { band: "veryLow", code: "104642-4" },
    { band: "low", code: "104641-6" },
    { band: "inRange", code: "97510-2" },
    { band: "high", code: "104640-8" },
    { band: "veryHigh", code: "104639-0" },
  ];

/** UCUM code and the display unit the guide's profiles fix for it. */
export const UNITS = {
  mgdl: { code: "mg/dL", unit: "mg/dl" },
  mmol: { code: "mmol/L", unit: "mmol/l" },
  percent: { code: "%", unit: "%" },
  days: { code: "d", unit: "days" },
} as const;

/** mmol/L = mg/dL / 18, the app's one conversion factor. */
export const MGDL_PER_MMOL = 18;

const OBSERVATION_CATEGORY: CodeableConcept[] = [
  {
    coding: [
      { system: "http://terminology.hl7.org/CodeSystem/observation-category", code: "laboratory" },
    ],
  },
];
const REPORT_CATEGORY: CodeableConcept[] = [
  { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "LAB" }] },
];
const NOT_COMPUTED: CodeableConcept = {
  coding: [
    { system: "http://terminology.hl7.org/CodeSystem/data-absent-reason", code: "not-performed" },
  ],
};

export interface FhirPatientFacts {
  /** The app's patient record id. */
  readonly pid: number;
  readonly firstName: string | null;
  readonly lastName: string | null;
  /** YYYY-MM-DD, or null. */
  readonly birthDate: string | null;
  readonly gender: "male" | "female" | "other" | "unknown" | null;
}

export interface FhirCgmDevice {
  readonly serial: string;
  /** The device's name with maker and model, as the guide's `deviceName` wants it. */
  readonly name: string;
}

export interface CgmSummaryInput {
  readonly report: AgpReport;
  readonly patient: FhirPatientFacts;
  readonly devices: readonly FhirCgmDevice[];
  /** The AGP page as a PDF, base64; null leaves the DiagnosticReport out. */
  readonly pdfBase64: string | null;
  /** The identifier systems (URIs) of the app's patient ids and device serials. */
  readonly systems: { readonly patient: string; readonly device: string };
  /** When the Bundle is made (epoch ms): its `timestamp` and the report's `issued`. */
  readonly now: number;
  /** A fresh UUID per call (the entries' `urn:uuid:` full URLs). */
  readonly uuid: () => string;
}

const quantity = (value: number, unit: (typeof UNITS)[keyof typeof UNITS]): Quantity => ({
  value,
  unit: unit.unit,
  system: UCUM,
  code: unit.code,
});

const loinc = (code: string): CodeableConcept => ({ coding: [{ system: LOINC, code }] });

/** A value rounded to `decimals`, or null when the model has none. */
function rounded(value: number | null, decimals: number): number | null {
  return value === null || !Number.isFinite(value) ? null : roundHalfUp(value, decimals);
}

/** Builds the Bundle (see the file comment). */
export function buildCgmSummaryBundle(input: CgmSummaryInput): Bundle {
  const { report, patient } = input;
  const fullUrl = () => `urn:uuid:${input.uuid()}`;
  const patientUrl = fullUrl();
  const subject: Reference<Patient> = { reference: patientUrl };
  const effectivePeriod = { start: report.from, end: report.to };
  const entries: BundleEntry[] = [];
  const add = (url: string, resource: Resource, ifNoneExist?: string) =>
    entries.push({
      fullUrl: url,
      resource,
      request: {
        method: "POST",
        url: resource.resourceType,
        ...(ifNoneExist ? { ifNoneExist } : {}),
      },
    });

  const name =
    patient.firstName || patient.lastName
      ? [
          {
            ...(patient.lastName ? { family: patient.lastName } : {}),
            ...(patient.firstName ? { given: [patient.firstName] } : {}),
          },
        ]
      : undefined;
  const patientResource: Patient = {
    resourceType: "Patient",
    identifier: [{ system: input.systems.patient, value: String(patient.pid) }],
    ...(name ? { name } : {}),
    ...(patient.gender ? { gender: patient.gender } : {}),
    ...(patient.birthDate ? { birthDate: patient.birthDate } : {}),
  };
  add(patientUrl, patientResource, `identifier=${input.systems.patient}|${patient.pid}`);

  for (const device of input.devices) {
    const resource: Device = {
      resourceType: "Device",
      meta: { profile: [CGM_PROFILES.device] },
      identifier: [{ system: input.systems.device, value: device.serial }],
      deviceName: [{ name: device.name, type: "user-friendly-name" }],
      serialNumber: device.serial,
      patient: subject,
    };
    add(fullUrl(), resource, `identifier=${input.systems.device}|${device.serial}`);
  }

  /** A summary member Observation with one quantity (or the reason it has none). */
  const member = (
    profile: string,
    code: string,
    value: number | null,
    unit: (typeof UNITS)[keyof typeof UNITS],
  ): Observation => ({
    resourceType: "Observation",
    meta: { profile: [profile] },
    status: "final",
    category: OBSERVATION_CATEGORY,
    code: loinc(code),
    subject,
    effectivePeriod,
    ...(value === null
      ? { dataAbsentReason: NOT_COMPUTED }
      : { valueQuantity: quantity(value, unit) }),
  });
  const stats = report.statistics;
  const percentOf = (m: MetricResult) => rounded(m.value, 2);
  const meanMgdl = stats.mean.value;
  const bandPercent = (band: AgpBandKey) =>
    rounded(report.timeInRanges.bands.find((b) => b.key === band)?.percent ?? null, 2);
  const components: ObservationComponent[] = TIME_IN_RANGE_CODES.map(({ band, code }) => {
    const value = bandPercent(band);
    return {
      code: loinc(code),
      ...(value === null
        ? { dataAbsentReason: NOT_COMPUTED }
        : { valueQuantity: quantity(value, UNITS.percent) }),
    };
  });
  const timesInRanges: Observation = {
    resourceType: "Observation",
    meta: { profile: [CGM_PROFILES.timesInRanges] },
    status: "final",
    category: OBSERVATION_CATEGORY,
    code: loinc(CGM_CODES.timesInRanges),
    subject,
    effectivePeriod,
    component: components,
  };
  const members: Observation[] = [
    member(CGM_PROFILES.meanMass, CGM_CODES.meanMass, rounded(meanMgdl, 1), UNITS.mgdl),
    member(
      CGM_PROFILES.meanMoles,
      CGM_CODES.meanMoles,
      rounded(meanMgdl === null ? null : meanMgdl / MGDL_PER_MMOL, 2),
      UNITS.mmol,
    ),
    timesInRanges,
    member(CGM_PROFILES.gmi, CGM_CODES.gmi, percentOf(stats.gmi), UNITS.percent),
    member(CGM_PROFILES.cv, CGM_CODES.cv, percentOf(stats.cv), UNITS.percent),
    member(CGM_PROFILES.daysOfWear, CGM_CODES.daysOfWear, report.daysWithData, UNITS.days),
    member(
      CGM_PROFILES.activePercent,
      CGM_CODES.activePercent,
      percentOf(stats.activePercent),
      UNITS.percent,
    ),
  ];
  const memberUrls = members.map(() => fullUrl());
  const summaryUrl = fullUrl();
  const summary: Observation = {
    resourceType: "Observation",
    meta: { profile: [CGM_PROFILES.summary] },
    status: "final",
    category: OBSERVATION_CATEGORY,
    code: loinc(CGM_CODES.summary),
    subject,
    effectivePeriod,
    hasMember: memberUrls.map((reference) => ({ reference })),
  };

  if (input.pdfBase64 !== null) {
    const pdfReport: DiagnosticReport = {
      resourceType: "DiagnosticReport",
      meta: { profile: [CGM_PROFILES.pdf] },
      status: "final",
      category: REPORT_CATEGORY,
      code: loinc(CGM_CODES.summary),
      subject,
      effectivePeriod,
      issued: new Date(input.now).toISOString(),
      result: [{ reference: summaryUrl }],
      presentedForm: [
        {
          contentType: "application/pdf",
          data: input.pdfBase64,
          title: `AGP ${report.from} – ${report.to}`,
        },
      ],
    };
    add(fullUrl(), pdfReport);
  }
  add(summaryUrl, summary);
  members.forEach((m, i) => add(memberUrls[i]!, m));

  return {
    resourceType: "Bundle",
    meta: { profile: [CGM_PROFILES.bundle] },
    type: "transaction",
    timestamp: new Date(input.now).toISOString(),
    entry: entries,
  };
}

/** The download's file name: cgm-summary-<last day of the report>.json. */
export function cgmSummaryFileName(report: Pick<AgpReport, "to">): string {
  return `cgm-summary-${report.to}.json`;
}

/** The AGP page's download of the Bundle for a range (ISO dates). */
export function cgmSummaryHref(pid: number, range: { start: string; end: string }): string {
  return `/${pid}/cgm-summary.json?${new URLSearchParams({ start: range.start, end: range.end })}`;
}
