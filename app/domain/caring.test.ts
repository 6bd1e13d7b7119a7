import { describe, expect, it } from "vitest";
import { AuditState, Identity } from "./codes";
import { CARING_STEP_HREF, caringMissing, mayUseCaring } from "./caring";

const person = { identity: Identity.Person, isPass: 0, firstName: "Ada", lastName: "Lane" };
const clinic = {
  identity: Identity.Clinic,
  isPass: AuditState.Approved,
  firstName: "Clara",
  lastName: "Clinic",
};
const record = { gender: "female", diabetesTypeId: 3 };

describe("who is offered remote caring", () => {
  it("every account in every language but Russian", () => {
    for (const locale of ["en", "pl", "it", "ro"])
      for (const identity of [Identity.Person, Identity.Clinic])
        expect([locale, identity, mayUseCaring(identity, locale)]).toEqual([
          locale,
          identity,
          true,
        ]);
  });

  it("in Russian only a clinic", () => {
    expect(mayUseCaring(Identity.Clinic, "ru")).toBe(true);
    expect(mayUseCaring(Identity.Person, "ru")).toBe(false);
  });
});

describe("what must be completed before remote caring", () => {
  it("nothing for a person with names and a record holding gender and diabetes type", () => {
    expect(caringMissing(person, record)).toEqual([]);
  });

  it("account information first: a missing or blank first or last name", () => {
    expect(caringMissing({ ...person, firstName: null }, record)).toEqual(["account"]);
    expect(caringMissing({ ...person, lastName: "  " }, record)).toEqual(["account"]);
  });

  it("then a person's own health record: none, no gender, or no diabetes type", () => {
    expect(caringMissing(person, null)).toEqual(["health"]);
    expect(caringMissing(person, { ...record, gender: null })).toEqual(["health"]);
    expect(caringMissing(person, { ...record, diabetesTypeId: null })).toEqual(["health"]);
    expect(caringMissing({ ...person, firstName: "" }, null)).toEqual(["account", "health"]);
  });

  it("a clinic needs no health record, but an approved organisation review", () => {
    expect(caringMissing(clinic, null)).toEqual([]);
    for (const isPass of [AuditState.NotSubmitted, AuditState.Refused, AuditState.InReview])
      expect(caringMissing({ ...clinic, isPass }, null)).toEqual(["organisation"]);
    expect(caringMissing({ ...clinic, lastName: null, isPass: 0 }, null)).toEqual([
      "account",
      "organisation",
    ]);
  });

  it("each step names the page where it is completed", () => {
    expect(CARING_STEP_HREF).toEqual({
      account: "/account",
      health: "/patient",
      organisation: "/organisation",
    });
  });
});
