import { describe, expect, it } from "vitest";
import { uploadErrLogSchema } from "./upload-error-log";

const report = {
  operatorUserId: 7,
  patientUserId: 9,
  content: "Reading the pump failed at record 120",
};
const problems = (body: unknown) => {
  const result = uploadErrLogSchema.safeParse(body);
  return result.success
    ? null
    : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
};

describe("upload error reports schema", () => {
  it("takes 1 to 250 reports, the patient optional or null, line breaks kept", () => {
    expect(uploadErrLogSchema.parse({ list: [report] })).toEqual({ list: [report] });
    expect(
      uploadErrLogSchema.parse({
        list: [{ operatorUserId: "7", patientUserId: null, content: "a\n\tb" }],
      }),
    ).toEqual({ list: [{ operatorUserId: 7, content: "a\n\tb" }] });
    expect(
      uploadErrLogSchema.parse({ list: [{ operatorUserId: 7, content: "x" }] }).list,
    ).toHaveLength(1);
    expect(
      uploadErrLogSchema.parse({ list: Array.from({ length: 250 }, () => report) }).list,
    ).toHaveLength(250);
  });

  it("refuses 251 reports and an empty list", () => {
    expect(problems({ list: Array.from({ length: 251 }, () => report) })).toEqual([
      ["list", "uploadErrLog.tooMany"],
    ]);
    expect(problems({ list: [] })).toEqual([["list", "uploadErrLog.listInvalid"]]);
    expect(problems({})).toEqual([["list", "uploadErrLog.listInvalid"]]);
    expect(problems({ list: report })).toEqual([["list", "uploadErrLog.listInvalid"]]);
  });

  it("takes 2048 characters of text and refuses 2049", () => {
    expect(problems({ list: [{ ...report, content: "x".repeat(2048) }] })).toBeNull();
    expect(problems({ list: [{ ...report, content: "x".repeat(2049) }] })).toEqual([
      ["list.0.content", "uploadErrLog.contentTooLong"],
    ]);
  });

  it("refuses missing or hidden-character text, bad ids and unknown keys", () => {
    expect(problems({ list: [{ ...report, content: "  " }] })).toEqual([
      ["list.0.content", "uploadErrLog.contentMissing"],
    ]);
    expect(problems({ list: [{ operatorUserId: 7 }] })).toEqual([
      ["list.0.content", "uploadErrLog.contentMissing"],
    ]);
    expect(problems({ list: [{ ...report, content: "evil\u202Etxt" }] })).toEqual([
      ["list.0.content", "input.hiddenCharacters"],
    ]);
    expect(problems({ list: [{ ...report, content: "nul\u0000" }] })).toEqual([
      ["list.0.content", "input.hiddenCharacters"],
    ]);
    expect(problems({ list: [{ ...report, operatorUserId: true }] })).toEqual([
      ["list.0.operatorUserId", "uploadErrLog.operatorInvalid"],
    ]);
    expect(problems({ list: [{ ...report, operatorUserId: 2 ** 31 }] })).toEqual([
      ["list.0.operatorUserId", "uploadErrLog.operatorInvalid"],
    ]);
    expect(problems({ list: [{ ...report, patientUserId: 0 }] })).toEqual([
      ["list.0.patientUserId", "uploadErrLog.patientInvalid"],
    ]);
    expect(problems({ list: [{ ...report, when: "now" }] })).toEqual([
      ["list.0", "uploadErrLog.unknownField"],
    ]);
    expect(problems({ list: [report], extra: 1 })).toEqual([["", "uploadErrLog.unknownField"]]);
  });
});
