import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  deleteAccountSchema,
  loginSchema,
  organisationSchema,
  photoSchema,
  profileSchema,
  registerClinicSchema,
  registerPersonSchema,
  resetPasswordSchema,
  signTypeSchema,
} from "./auth";

/** The messages zod reports, by field. */
function errors(result: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}) {
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? [])
    (out[issue.path.join(".") || "_"] ??= []).push(issue.message);
  return out;
}

const person = {
  email: " Ana@Example.org ",
  password: "long enough",
  confirmPassword: "long enough",
  code: "123456",
  firstName: "Ana",
  lastName: "Pop",
  agree: "on",
  birthDate: "1990-01-31",
  height: "170",
  weight: "65.5",
  unit: "0",
  lowLimit: "3.9",
  highLimit: "10",
};

describe("login", () => {
  it("requires a non-blank email and password (emailMsg, passwordMsg)", () => {
    expect(errors(loginSchema.safeParse({}))).toEqual({
      email: ["errors.emailMsg"],
      password: ["errors.passwordMsg"],
    });
    expect(errors(loginSchema.safeParse({ email: "   ", password: "   " }))).toEqual({
      email: ["errors.emailMsg"],
      password: ["errors.passwordMsg"],
    });
  });
  it("rejects a malformed email and an unknown sign-in type", () => {
    expect(
      errors(loginSchema.safeParse({ email: "not-an-email", password: "x", identity: "3" })),
    ).toEqual({ email: ["errors.emailInvalid"], identity: ["errors.identityMsg"] });
  });
  it("lower-cases the email and defaults to identity 1", () => {
    expect(loginSchema.parse({ email: "A@B.CO", password: "x" })).toMatchObject({
      email: "a@b.co",
      identity: 1,
    });
  });
});

describe("sign-up type", () => {
  it("asks for the type first", () => {
    expect(errors(signTypeSchema.safeParse({}))).toEqual({ signType: ["errors.signTypeFirst"] });
    expect(signTypeSchema.parse({ signType: "clinic" })).toEqual({ signType: "clinic" });
  });
});

describe("person registration", () => {
  it("accepts a complete form and converts the range to mg/dL", () => {
    const value = registerPersonSchema.parse(person);
    expect(value).toMatchObject({
      email: "ana@example.org",
      height: 170,
      weight: 65.5,
      lowLimitMgdl: 3.9 * 18,
      highLimitMgdl: 180,
    });
    expect(
      registerPersonSchema.parse({ ...person, unit: "1", lowLimit: "70", highLimit: "180" }),
    ).toMatchObject({ lowLimitMgdl: 70, highLimitMgdl: 180 });
  });
  it("names every missing field", () => {
    expect(errors(registerPersonSchema.safeParse({}))).toEqual({
      email: ["errors.emailMsg"],
      password: ["errors.passwordMsg"],
      confirmPassword: ["errors.confirmMsg"],
      code: ["errors.codeMsg"],
      firstName: ["errors.firstNameMsg"],
      lastName: ["errors.lastNameMsg"],
      agree: ["errors.agreeFirst"],
      birthDate: ["errors.birthDateMsg"],
      height: ["errors.heightMsg"],
      weight: ["errors.weightMsg"],
    });
  });
  it("checks the password, its confirmation and the code", () => {
    expect(
      errors(
        registerPersonSchema.safeParse({ ...person, password: "short", confirmPassword: "short" }),
      ),
    ).toEqual({ password: ["errors.passwordTooShort"] });
    expect(
      errors(registerPersonSchema.safeParse({ ...person, confirmPassword: "different" })),
    ).toEqual({ confirmPassword: ["errors.passwordMismatch"] });
    expect(errors(registerPersonSchema.safeParse({ ...person, code: "12345" }))).toEqual({
      code: ["errors.codeInvalid"],
    });
  });
  it("requires the glucose range ('Please Add Glucose Range') with high above low ('Glucose Range Not Right')", () => {
    expect(errors(registerPersonSchema.safeParse({ ...person, lowLimit: undefined }))).toEqual({
      lowLimit: ["errors.glucoseRangeRequired"],
    });
    expect(errors(registerPersonSchema.safeParse({ ...person, highLimit: "" }))).toEqual({
      highLimit: ["errors.glucoseRangeRequired"],
    });
    expect(
      errors(registerPersonSchema.safeParse({ ...person, lowLimit: "10", highLimit: "3.9" })),
    ).toEqual({ highLimit: ["errors.glucoseRangeWrong"] });
    expect(
      errors(registerPersonSchema.safeParse({ ...person, lowLimit: "5", highLimit: "5" })),
    ).toEqual({ highLimit: ["errors.glucoseRangeWrong"] });
    expect(
      errors(registerPersonSchema.safeParse({ ...person, lowLimit: "1", highLimit: "10" })),
    ).toEqual({ lowLimit: ["errors.glucoseRangeImplausible"] });
  });
  it("refuses implausible birth dates, heights and weights, and an unticked agreement", () => {
    expect(errors(registerPersonSchema.safeParse({ ...person, birthDate: "2999-01-01" }))).toEqual({
      birthDate: ["errors.birthDateInvalid"],
    });
    expect(errors(registerPersonSchema.safeParse({ ...person, birthDate: "31/01/1990" }))).toEqual({
      birthDate: ["errors.birthDateMsg"],
    });
    expect(errors(registerPersonSchema.safeParse({ ...person, height: "20" }))).toEqual({
      height: ["errors.heightInvalid"],
    });
    expect(errors(registerPersonSchema.safeParse({ ...person, weight: "900" }))).toEqual({
      weight: ["errors.weightInvalid"],
    });
    expect(errors(registerPersonSchema.safeParse({ ...person, agree: undefined }))).toEqual({
      agree: ["errors.agreeFirst"],
    });
  });
});

describe("clinic registration", () => {
  it("needs no health data", () => {
    const {
      birthDate: _b,
      height: _h,
      weight: _w,
      unit: _u,
      lowLimit: _l,
      highLimit: _hl,
      ...clinic
    } = person;
    expect(registerClinicSchema.safeParse(clinic).success).toBe(true);
  });
});

describe("passwords", () => {
  it("change: current password required, new one confirmed", () => {
    expect(
      errors(
        changePasswordSchema.safeParse({
          password: "new password",
          confirmPassword: "new password",
        }),
      ),
    ).toEqual({ currentPassword: ["errors.passwordMsg"] });
    expect(
      errors(
        changePasswordSchema.safeParse({
          currentPassword: "x",
          password: "new password",
          confirmPassword: "other",
        }),
      ),
    ).toEqual({ confirmPassword: ["errors.passwordMismatch"] });
  });
  it("reset: email, 6-digit code and a new password", () => {
    expect(
      errors(
        resetPasswordSchema.safeParse({
          email: "a@b.co",
          code: "abc",
          password: "new password",
          confirmPassword: "new password",
        }),
      ),
    ).toEqual({ code: ["errors.codeInvalid"] });
  });
});

describe("organisation form", () => {
  const complete = {
    hospitalName: "H",
    address: "A",
    area: "R",
    country: "Poland",
    connectName: "C",
    connectPhone: "+48 22 000 00 00",
  };
  it("gives each of the six fields its own message, and rejects whitespace-only values", () => {
    expect(errors(organisationSchema.safeParse({}))).toEqual({
      hospitalName: ["errors.OrganizationError"],
      address: ["errors.AddressError"],
      area: ["errors.AreaError"],
      country: ["errors.CountryError"],
      connectName: ["errors.ContactError"],
      connectPhone: ["errors.PhoneError"],
    });
    expect(
      errors(organisationSchema.safeParse({ ...complete, address: "   ", connectName: "\t" })),
    ).toEqual({ address: ["errors.AddressError"], connectName: ["errors.ContactError"] });
  });
  it("accepts a complete form and refuses a phone without digits", () => {
    expect(organisationSchema.safeParse(complete).success).toBe(true);
    expect(errors(organisationSchema.safeParse({ ...complete, connectPhone: "call me" }))).toEqual({
      connectPhone: ["errors.PhoneError"],
    });
  });
});

describe("profile form", () => {
  it("trims every part and keeps blank optional parts as null", () => {
    expect(
      profileSchema.parse({
        firstName: "  Zofia ",
        middleName: "   ",
        lastName: "Nowak-Kowalska ",
        userName: "",
      }),
    ).toEqual({ firstName: "Zofia", middleName: null, lastName: "Nowak-Kowalska", userName: null });
    expect(profileSchema.parse({ firstName: "Ion", lastName: "Popescu" })).toEqual({
      firstName: "Ion",
      middleName: null,
      lastName: "Popescu",
      userName: null,
    });
  });

  it("keeps letters of every script, apostrophes and spaces", () => {
    expect(
      profileSchema.parse({
        firstName: "Алёна",
        middleName: "D'Angelo",
        lastName: "Łukasiewicz",
        userName: "Ştefan cel Mare",
      }),
    ).toEqual({
      firstName: "Алёна",
      middleName: "D'Angelo",
      lastName: "Łukasiewicz",
      userName: "Ştefan cel Mare",
    });
  });

  it("requires a first and a last name (whitespace is not a name)", () => {
    expect(errors(profileSchema.safeParse({ firstName: " ", lastName: "\t" }))).toEqual({
      firstName: ["errors.firstNameMsg"],
      lastName: ["errors.lastNameMsg"],
    });
    expect(errors(profileSchema.safeParse({}))).toEqual({
      firstName: ["errors.firstNameMsg"],
      lastName: ["errors.lastNameMsg"],
    });
  });

  it("takes 60 characters a part and refuses 61", () => {
    const sixty = "a".repeat(60);
    expect(
      profileSchema.safeParse({
        firstName: sixty,
        middleName: sixty,
        lastName: sixty,
        userName: sixty,
      }).success,
    ).toBe(true);
    const long = "b".repeat(61);
    expect(
      errors(
        profileSchema.safeParse({
          firstName: long,
          middleName: long,
          lastName: long,
          userName: long,
        }),
      ),
    ).toEqual({
      firstName: ["errors.tooLong"],
      middleName: ["errors.tooLong"],
      lastName: ["errors.tooLong"],
      userName: ["errors.tooLong"],
    });
  });

  it("refuses control characters and bidirectional overrides in any part", () => {
    expect(
      errors(
        profileSchema.safeParse({
          firstName: "Ana\u0000",
          middleName: "Maria\nIoana",
          lastName: "Pop\u202e",
          userName: "ana\u0007",
        }),
      ),
    ).toEqual({
      firstName: ["input.hiddenCharacters"],
      middleName: ["input.hiddenCharacters"],
      lastName: ["input.hiddenCharacters"],
      userName: ["input.hiddenCharacters"],
    });
  });
});

describe("profile photo upload", () => {
  const file = (size: number) => new File([new Uint8Array(size)], "me.png", { type: "image/png" });

  it("takes a file of up to 512 KiB", () => {
    expect(photoSchema.safeParse({ photo: file(512 * 1024) }).success).toBe(true);
  });

  it("refuses a larger file, and no file at all", () => {
    expect(errors(photoSchema.safeParse({ photo: file(512 * 1024 + 1) }))).toEqual({
      photo: ["errors.photoTooLarge"],
    });
    expect(errors(photoSchema.safeParse({}))).toEqual({ photo: ["errors.photoMissing"] });
    expect(errors(photoSchema.safeParse({ photo: "me.png" }))).toEqual({
      photo: ["errors.photoMissing"],
    });
  });
});

describe("account deletion", () => {
  it("needs the current password, which is not trimmed", () => {
    expect(deleteAccountSchema.parse({ currentPassword: " pass word " })).toEqual({
      currentPassword: " pass word ",
    });
    expect(errors(deleteAccountSchema.safeParse({ currentPassword: "  " }))).toEqual({
      currentPassword: ["errors.passwordMsg"],
    });
    expect(errors(deleteAccountSchema.safeParse({}))).toEqual({
      currentPassword: ["errors.passwordMsg"],
    });
  });
});
