import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { shiftDate } from "../../app/report/day";
import { reportPdfFileName, reportPdfHref } from "../../app/report/report-kinds";
import type { GlucoseUnit } from "../../app/domain/glucose-unit";
import {
  completeHealthRecord,
  createAcceptedShare,
  createUser,
  setPaperSize,
  setPrintOrientation,
  setReportLogo,
} from "./db";
import { tr, type Lng } from "./i18n";
import { createKnownPatient } from "./known-patient";
import { downloadReportPdf, readPdf } from "./report-pdf";
import { signIn, signInWithLanguage } from "./support";

/**
 * The glucose profile (the consensus one-page layout) over the known patient's uploaded week
 * (known-patient.ts: the 7 local days ending yesterday, a reading every 5 minutes, 2016 readings
 * of 63, 99, 153 and 225 mg/dL equally often, one 63 replaced by 396). By hand:
 * - bands (standard): > 250: 1 reading, 1/2016 = 0.0 %, 0.05 % of 1440 min = 0.7 -> 1 min;
 *   181-250: the 504 225s, 25.0 %, 360 min = 6 h; 70-180: the 99s and 153s, 1008, 50.0 %, 12 h;
 *   54-69: the 503 63s, 24.95 % -> "25.0 %", 359.3 -> 359 min = 5 h 59 min; < 54: none, 0 min;
 * - goals (standard): > 250 0.05 % < 5 met; > 180 505/2016 = 25.05 % < 25 not met; 70-180 50 % > 70
 *   not met; < 70 24.95 % < 4 not met; < 54 0 % < 1 met;
 * - pregnancy bands: 63-140 holds the 63s and 99s, 1007/2016 = 49.95 % -> "50.0 %"; 141-250 the
 *   153s and 225s, 1008, 50.0 %; 54-62 and < 54 none; goals: > 140 1009/2016 = 50.05 % < 25 not
 *   met; 63-140 49.95 % > 70 not met; < 63 0 % < 4 met; < 54 0 % < 1 met;
 * - mean (504 x 540 + 333) / 2016 = 135.17 mg/dL -> 135 mg/dL, / 18 = 7.5 mmol/L, < 154 met;
 *   GMI 3.31 + 0.02392 x 135.17 = 6.54 -> 6.5 %, < 7 met; CV: sample SD 61.31 / 135.17 = 45.4 %,
 *   not <= 36;
 * - over the week itself the CGM is active 2016 of 2016 expected readings (100.0 %) and all 7
 *   days have data; over the default 14 days ending today, 2016 of 14 x 288 = 4032: 50.0 %, so
 *   GMI is withheld.
 */

/** A grey 8-bit PNG of `width` x `height` pixels, all black. */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, no filter, no interlace
  // Each row: filter byte 0, then `width` black pixels.
  const rows = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A portrait sheet's media box in points (1 pt = 1/72 in): A4 210 x 297 mm, Letter 8.5 x 11 in. */
const MEDIA_BOX = { a4: [595, 842], letter: [612, 792] } as const;

/**
 * The profile's PDF of the known week, read back; asserts it is one portrait page of the reader's
 * paper (A4 unless told).
 */
async function onePagePdf(
  page: Page,
  testInfo: Parameters<typeof readPdf>[1],
  pid: number,
  range: { start: string; end: string },
  label: string,
  lang: Lng,
  paper: keyof typeof MEDIA_BOX = "a4",
) {
  const href = reportPdfHref("agp", pid, range);
  const pdf =
    lang === "pl"
      ? // Signed-in Polish readers are held by the regional-site dialog: fetch with the same session.
        await readPdf(await (await page.request.get(href)).body(), testInfo, label)
      : await downloadReportPdf(page, testInfo, {
          href,
          fileName: reportPdfFileName("agp", pid, range),
          label,
          lang,
        });
  // PROFILE_PDF_DIR=dir keeps each PDF there, to look at its layout.
  if (process.env.PROFILE_PDF_DIR)
    writeFileSync(
      path.join(process.env.PROFILE_PDF_DIR, `${label}-${testInfo.project.name}.pdf`),
      await (await page.request.get(href)).body(),
    );
  expect(pdf.pages).toBe(1);
  expect(pdf.size).toEqual(MEDIA_BOX[paper]);
  return pdf;
}

test.describe("glucose profile (consensus layout)", () => {
  test.describe.configure({ timeout: 150_000 });

  test("a clinic reading mmol/L sees the header, the bands with their time per day, the standard goals and the metrics; the default range withholds GMI; the PDF is one page", async ({
    page,
    request,
  }, testInfo) => {
    const r = (key: string) => tr("en", key, "reports");
    const patient = await createKnownPatient(request, {
      tag: "profile-patient",
      firstName: "Gloria",
      lastName: "Profile",
    });
    const clinic = await createUser({
      tag: "profile-clinic",
      identity: 2,
      firstName: "Carl",
      lastName: "Consensus",
      unit: 0,
    });
    await createAcceptedShare(patient.id, clinic.id);
    await signIn(page, clinic.email, clinic.password, 2);

    const { first: start, last: end } = patient;
    await page.goto(`/${patient.pid}/agpprint?start=${start}&end=${end}`);
    await expect(
      page.getByRole("heading", { level: 1, name: "Glucose profile (consensus)" }),
    ).toBeVisible();
    await expect(page.getByText(/AGP report/i)).toHaveCount(0);
    await expect(page.getByTestId("report-patient")).toHaveText(patient.name);
    await expect(page.getByTestId("report-range")).toHaveText(/^7 days: /);
    await expect(page.getByTestId("agp-active")).toHaveText("100.0 %");
    await expect(page.getByTestId("agp-days-with-data")).toHaveText("7 of 7");

    const bands = {
      veryHigh: ["> 13.9 mmol/L", "0.0 %", "1 min"],
      high: ["10.1–13.9 mmol/L", "25.0 %", "6 hr"],
      inRange: ["3.9–10.0 mmol/L", "50.0 %", "12 hr"],
      low: ["3.0–3.8 mmol/L", "25.0 %", "5 hr 59 min"],
      veryLow: ["< 3.0 mmol/L", "0.0 %", "0 min"],
    };
    for (const [key, [bounds, share, time]] of Object.entries(bands)) {
      await expect(page.getByTestId(`agp-bounds-${key}`)).toHaveText(bounds!);
      await expect(page.getByTestId(`agp-tir-${key}`)).toHaveText(share!);
      await expect(page.getByTestId(`agp-time-${key}`)).toHaveText(time!);
    }
    await expect(page.getByTestId("agp-goals")).toHaveAttribute("data-goal-set", "standard");
    const goals = { above250: "yes", above180: "no", inRange: "no", below70: "no", below54: "yes" };
    await expect(page.getByTestId("agp-goals").locator("li")).toHaveCount(5);
    for (const [key, met] of Object.entries(goals))
      await expect(page.getByTestId(`agp-goal-${key}`)).toHaveAttribute("data-met", met);
    await expect(page.getByTestId("agp-goal-above180")).toContainText("Above 10.0 mmol/L");
    await expect(page.getByTestId("agp-goal-above180")).toContainText(r("agp.notMet"));

    await expect(page.getByTestId("agp-mean")).toHaveText("7.5 mmol/L");
    await expect(page.getByTestId("agp-gmi")).toHaveText("6.5 %");
    await expect(page.getByTestId("agp-cv")).toHaveText("45.4 %");
    const metrics = page.getByTestId("agp-statistics");
    await expect(metrics).toContainText("Goal: below 8.6 mmol/L · Goal met");
    await expect(metrics).toContainText("Goal: below 7 % · Goal met");
    await expect(metrics).toContainText("Goal: at most 36 % · Goal not met");

    // The AGP: five percentiles, the how-to-read line, the axis up to 19.4 mmol/L (350 mg/dL).
    await expect(page.getByTestId("agp-how-to-read")).toContainText("values above 19.4 mmol/L");
    for (const name of ["95 %", "75 %", "50 %", "25 %", "5 %"])
      await expect(
        page.getByTestId("agp-chart").locator("text", { hasText: new RegExp(`^${name}$`) }),
      ).toHaveCount(1);
    await expect(page.getByTestId("agp-day")).toHaveCount(7);
    const tops = await page
      .getByTestId("agp-day")
      .evaluateAll((days) =>
        days.map(
          (day) =>
            [...day.querySelectorAll('g[aria-label="y-axis tick label"] text')].at(-1)?.textContent,
        ),
      );
    expect(tops).toEqual(Array(7).fill("19.4"));
    await testInfo.attach(`glucose-profile-${testInfo.project.name}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });

    const pdf = await onePagePdf(page, testInfo, patient.pid, { start, end }, "profile-en", "en");
    expect(pdf.text).toContain("Glucose profile (consensus)");
    expect(pdf.text).toContain(r("agp.daysWithData"));
    expect(pdf.text).not.toMatch(/AGP report/i);

    // The default range, the 14 days ending today: the week is half of it, GMI is left out.
    await page.goto(`/${patient.pid}/agpprint`);
    await expect(page.getByTestId("report-range")).toHaveText(/^14 days: /);
    await expect(page.getByTestId("agp-active")).toHaveText("50.0 %");
    await expect(page.getByTestId("agp-days-with-data")).toHaveText("7 of 14");
    await expect(page.getByTestId("agp-gmi")).toHaveText("—");
    await expect(metrics).toContainText(
      "Not shown: the CGM was active 50.0 % of the period, and GMI needs at least 70 %.",
    );
    await onePagePdf(
      page,
      testInfo,
      patient.pid,
      { start: shiftDate(end, -12), end: shiftDate(end, 1) },
      "profile-en-14",
      "en",
    );

    // On US Letter (17.6 mm shorter than A4) the 7 and the 14 days still fit one page.
    await setPaperSize(clinic.id, "letter");
    await page.goto(`/${patient.pid}/agpprint?start=${start}&end=${end}`);
    const letter = await onePagePdf(
      page,
      testInfo,
      patient.pid,
      { start, end },
      "profile-en-letter",
      "en",
      "letter",
    );
    expect(letter.text).toContain(r("agp.daysWithData"));
    await page.goto(`/${patient.pid}/agpprint`);
    await onePagePdf(
      page,
      testInfo,
      patient.pid,
      { start: shiftDate(end, -12), end: shiftDate(end, 1) },
      "profile-en-14-letter",
      "en",
      "letter",
    );
  });

  test("a patient chooses the pregnancy goals in the health record; the profile shows the 63-140 mg/dL bands and the pregnancy goals, on one PDF page", async ({
    page,
    request,
  }, testInfo) => {
    const patient = await createKnownPatient(request, {
      tag: "profile-pregnancy",
      firstName: "Paula",
      lastName: "Pregnant",
    });
    await completeHealthRecord(patient.id);
    await signIn(page, patient.email, patient.password, 1);
    await page.goto("/patient");
    const goalSet = page.getByLabel(tr("en", "cgmGoalSet.label", "record"));
    await expect(goalSet).toHaveValue("standard");
    await goalSet.selectOption("pregnancy");
    await page.getByRole("button", { name: tr("en", "record.submit", "record") }).click();
    await expect(page.getByText(tr("en", "record.saved", "record"))).toBeVisible();
    await page.goto("/patient");
    await expect(goalSet).toHaveValue("pregnancy");

    const { first: start, last: end } = patient;
    await page.goto(`/${patient.pid}/agpprint?start=${start}&end=${end}`);
    await expect(page.getByTestId("agp-goals")).toHaveAttribute("data-goal-set", "pregnancy");
    await expect(
      page.getByRole("heading", {
        level: 3,
        name: `Goals for: ${tr("en", "agp.goalSets.pregnancy", "reports")}`,
      }),
    ).toBeVisible();
    // The patient reads mmol/L (the default unit): 63-140 mg/dL is 3.5-7.8 mmol/L, 141 is 7.9.
    const bands = {
      veryHigh: ["> 13.9 mmol/L", "0.0 %"],
      high: ["7.9–13.9 mmol/L", "50.0 %"],
      inRange: ["3.5–7.8 mmol/L", "50.0 %"],
      low: ["3.0–3.4 mmol/L", "0.0 %"],
      veryLow: ["< 3.0 mmol/L", "0.0 %"],
    };
    for (const [key, [bounds, share]] of Object.entries(bands)) {
      await expect(page.getByTestId(`agp-bounds-${key}`)).toHaveText(bounds!);
      await expect(page.getByTestId(`agp-tir-${key}`)).toHaveText(share!);
    }
    await expect(page.getByTestId("agp-goals").locator("li")).toHaveCount(4);
    const goals = { above140: "no", inRange63to140: "no", below63: "yes", below54: "yes" };
    for (const [key, met] of Object.entries(goals))
      await expect(page.getByTestId(`agp-goal-${key}`)).toHaveAttribute("data-met", met);
    await expect(page.getByTestId("agp-goal-inRange63to140")).toContainText(
      "In range 3.5–7.8 mmol/L (target) Goal: more than 70 % · 50.0 % · Goal not met",
    );
    await expect(page.getByTestId("agp-goal-above140")).toContainText("Above 7.8 mmol/L");
    await expect(page.getByTestId("agp-goal-below63")).toContainText("Below 3.5 mmol/L");
    await onePagePdf(page, testInfo, patient.pid, { start, end }, "profile-pregnancy", "en");
  });

  /** Every language, each with one unit (both units among them), read on one PDF page. */
  const LANGUAGES: readonly { lng: Lng; unit: GlucoseUnit; inRange: string }[] = [
    { lng: "en", unit: 1, inRange: "70–180 mg/dL" },
    { lng: "pl", unit: 0, inRange: "3,9–10,0 mmol/l" },
    { lng: "ru", unit: 1, inRange: "70–180 мг/дл" },
    { lng: "it", unit: 0, inRange: "3,9–10,0 mmol/L" },
    { lng: "ro", unit: 1, inRange: "70–180 mg/dL" },
  ];
  for (const { lng, unit, inRange } of LANGUAGES) {
    test(`${lng}, ${unit === 1 ? "mg/dL" : "mmol/L"}: the profile's title and bands in the reader's language, one PDF page on A4 and on Letter`, async ({
      page,
      request,
    }, testInfo) => {
      const r = (key: string) => tr(lng, key, "reports");
      const patient = await createKnownPatient(request, {
        tag: `profile-${lng}-patient`,
        firstName: "Lina",
        lastName: `Profile${lng}`,
      });
      const clinic = await createUser({
        tag: `profile-${lng}`,
        identity: 2,
        firstName: "Liv",
        lastName: `Lang${lng}`,
        lang: lng,
        unit,
      });
      await createAcceptedShare(patient.id, clinic.id);
      await signInWithLanguage(page, clinic, lng);
      const { first: start, last: end } = patient;
      await page.goto(`/${patient.pid}/agpprint?start=${start}&end=${end}`);
      await expect(page.getByRole("heading", { level: 1, name: r("agp.title") })).toBeVisible();
      await expect(page.getByTestId("agp-bounds-inRange")).toContainText(inRange);
      await expect(page.getByTestId("agp-tir-inRange")).toHaveText(
        lng === "en" ? "50.0 %" : "50,0 %",
      );
      await expect(page.getByTestId("agp-how-to-read")).toContainText(
        r("agp.howToRead").slice(0, 12),
      );
      const pdf = await onePagePdf(
        page,
        testInfo,
        patient.pid,
        { start, end },
        `profile-${lng}`,
        lng,
      );
      expect(pdf.text).toContain(r("agp.title"));
      expect(pdf.text).toContain(r("agp.metrics"));
      if (lng === "ro") {
        // A reader who prints in landscape still gets the profile's one A4 portrait page
        // (595 x 842 pt).
        await setPrintOrientation(clinic.id, "landscape");
        const href = reportPdfHref("agp", patient.pid, { start, end });
        const dir = mkdtempSync(path.join(os.tmpdir(), "profile-"));
        try {
          const file = path.join(dir, "profile.pdf");
          writeFileSync(file, await (await page.request.get(href)).body());
          const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
          expect(/^Pages:\s+(\d+)/m.exec(info)?.[1]).toBe("1");
          expect(
            /^Page size:\s+([\d.]+) x ([\d.]+)/m
              .exec(info)
              ?.slice(1)
              .map((v) => Math.round(Number(v))),
          ).toEqual([595, 842]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      // US Letter, 17.6 mm shorter than A4: the default 14 days ending today (the week and the
      // week before it, two rows of daily profiles) on one portrait page of 612 x 792 pt, a
      // landscape reader's too, with a logo as tall as the header allows (200 px, shown 3rem).
      await setPaperSize(clinic.id, "letter");
      await setReportLogo(clinic.id, blackPng(40, 200));
      await page.goto(`/${patient.pid}/agpprint`);
      await expect(page.getByTestId("report-header").getByRole("img")).toBeVisible();
      await expect(page.getByTestId("agp-day")).toHaveCount(14);
      const letter = await onePagePdf(
        page,
        testInfo,
        patient.pid,
        { start: shiftDate(end, -12), end: shiftDate(end, 1) },
        `profile-${lng}-14-letter`,
        lng,
        "letter",
      );
      expect(letter.text).toContain(r("agp.title"));
      expect(letter.text).toContain(r("agp.metrics"));
    });
  }
});
