import { describe, expect, it } from "vitest";
import {
  ageBandOf,
  ageCounts,
  ageOn,
  dashboardCounts,
  diabetesCounts,
  genderCounts,
  type DashboardPatient,
} from "./dashboard";

const patient = (p: Partial<DashboardPatient>): DashboardPatient => ({
  gender: null,
  birthDate: null,
  diabetesType: null,
  ...p,
});

describe("ageOn", () => {
  it("counts the birthdays passed", () => {
    expect(ageOn("1988-04-12", "2026-04-11")).toBe(37);
    expect(ageOn("1988-04-12", "2026-04-12")).toBe(38);
    expect(ageOn("2026-01-01", "2026-11-26")).toBe(0);
  });

  it("passes a 29 February birthday on 1 March of a common year", () => {
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
    expect(ageOn("2008-02-29", "2028-02-29")).toBe(20);
  });

  it("has no age for a birth date after today", () => {
    expect(ageOn("2026-11-27", "2026-11-26")).toBeNull();
  });
});

describe("ageBandOf", () => {
  it("puts each band's ends inside it", () => {
    expect([0, 17, 18, 29, 30, 44, 45, 59, 60, 74, 75, 104].map(ageBandOf)).toEqual([
      "0-17",
      "0-17",
      "18-29",
      "18-29",
      "30-44",
      "30-44",
      "45-59",
      "45-59",
      "60-74",
      "60-74",
      "75+",
      "75+",
    ]);
    expect(ageBandOf(null)).toBe("unknown");
  });
});

describe("the counts", () => {
  const today = "2026-11-26";
  // Ages on 2026-11-26: 38 (30-44), 65 (60-74), 17 (0-17, the birthday is tomorrow), 18 (18-29,
  // the birthday is today), none, a future birth date (unknown).
  const patients = [
    patient({ gender: "female", birthDate: "1988-04-12", diabetesType: "type1" }),
    patient({ gender: "male", birthDate: "1961-09-30", diabetesType: "type2" }),
    patient({ gender: "female", birthDate: "2008-11-27", diabetesType: "type1" }),
    patient({ gender: "other", birthDate: "2008-11-26", diabetesType: "lada" }),
    patient({ gender: null, birthDate: null, diabetesType: null }),
    patient({ gender: "unknown", birthDate: "2027-01-01", diabetesType: "retired-code" }),
  ];

  it("by gender, every gender listed, none given counted as unknown", () => {
    expect(genderCounts(patients)).toEqual([
      { key: "female", count: 2 },
      { key: "male", count: 1 },
      { key: "other", count: 1 },
      { key: "unknown", count: 2 },
    ]);
  });

  it("by age band, empty bands included", () => {
    expect(ageCounts(patients, today)).toEqual([
      { key: "0-17", count: 1 },
      { key: "18-29", count: 1 },
      { key: "30-44", count: 1 },
      { key: "45-59", count: 0 },
      { key: "60-74", count: 1 },
      { key: "75+", count: 0 },
      { key: "unknown", count: 2 },
    ]);
  });

  it("by type of diabetes in the options' order, then none", () => {
    expect(diabetesCounts(patients, ["type1", "type2", "gestational", "lada"])).toEqual([
      { key: "type1", count: 2 },
      { key: "type2", count: 1 },
      { key: "gestational", count: 0 },
      { key: "lada", count: 1 },
      { key: "none", count: 2 },
    ]);
  });

  it("each count adds up to the total", () => {
    const counts = dashboardCounts(patients, ["type1", "type2"], today);
    expect(counts.total).toBe(6);
    for (const list of [counts.sex, counts.age, counts.ill])
      expect(list.reduce((sum, c) => sum + c.count, 0)).toBe(6);
  });

  it("no patients: every category zero", () => {
    const counts = dashboardCounts([], ["type1"], today);
    expect(counts.total).toBe(0);
    expect(counts.ill).toEqual([
      { key: "type1", count: 0 },
      { key: "none", count: 0 },
    ]);
  });
});
