import { beforeEach, describe, expect, it, vi } from "vitest";
import { loader as cgmsprint } from "~/routes/$id.cgmsprint";
import { loader as cgmsprintPdf } from "~/routes/$id.cgmsprint[.]pdf";
import { loader as triageprint } from "~/routes/triageprint";
import { loader as triageprintPdf } from "~/routes/triageprint[.]pdf";
import { db } from "~/utils/db.server";
import { pdfOptions, renderPdf } from "~/utils/pdf.server";
import { callPage, callPdf, cookieFor } from "./report-support";

// The reader's paper size (A4 or US Letter) reaching the report pages and the PDF renderer. The
// renderer is replaced by a stand-in that records its options: Chromium itself, and the media box
// it prints for each format, are tested in tests/pdf and tests/e2e.

vi.mock("~/utils/pdf.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/utils/pdf.server")>();
  return { ...actual, renderPdf: vi.fn(async () => new TextEncoder().encode("%PDF-1.7 stand-in")) };
});

const rendered = vi.mocked(renderPdf);
beforeEach(() => rendered.mockClear());

let n = 0;
/** A person with their own record and, when given, print settings. */
async function person(setting?: { paperSize?: string; orientation?: string }) {
  const user = await db().user.create({
    data: {
      email: `paper-${++n}@paper.test`,
      identity: 1,
      active: true,
      patient: { create: { timeZone: "UTC" } },
      ...(setting ? { setting: { create: { lang: "en", ...setting } } } : {}),
    },
    include: { patient: true },
  });
  return { id: user.id, pid: user.patient!.id };
}

/** An approved clinic (its audit passed) and, when given, its paper size. */
async function clinic(paperSize?: string) {
  const user = await db().user.create({
    data: {
      email: `paper-clinic-${++n}@paper.test`,
      identity: 2,
      isPass: 1,
      active: true,
      ...(paperSize ? { setting: { create: { lang: "en", paperSize } } } : {}),
    },
  });
  return user.id;
}

const RANGE = "?start=2026-09-01&end=2026-09-07";

describe("Chromium's options", () => {
  const deadline = { remaining: () => 5000 };

  it("prints A4 unless Letter is asked for, and lets the page's own @page size win", () => {
    expect(pdfOptions({ url: "http://x/" }, deadline)).toMatchObject({
      format: "A4",
      landscape: false,
      preferCSSPageSize: true,
    });
    expect(pdfOptions({ url: "http://x/", paper: "a4", landscape: true }, deadline)).toMatchObject({
      format: "A4",
      landscape: true,
    });
    expect(pdfOptions({ url: "http://x/", paper: "letter" }, deadline)).toMatchObject({
      format: "Letter",
      preferCSSPageSize: true,
    });
  });
});

describe("a report's page and PDF follow the reader's paper size", () => {
  it("Letter and landscape: the page's shell names them and the PDF is asked for on Letter", async () => {
    const who = await person({ paperSize: "letter", orientation: "landscape" });
    const data = (await callPage(cgmsprint, "cgmsprint", who.id, who.pid, RANGE)) as {
      shell: { settings: { paperSize: string; orientation: string } };
    };
    expect(data.shell.settings).toMatchObject({ paperSize: "letter", orientation: "landscape" });
    const answer = await callPdf(cgmsprintPdf, "cgmsprint", who.id, who.pid, RANGE);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/pdf");
    expect(rendered).toHaveBeenCalledTimes(1);
    expect(rendered.mock.calls[0]![0]).toMatchObject({ paper: "letter", landscape: true });
  });

  it("A4 for a reader without a settings row, and for one who kept the default", async () => {
    for (const who of [await person(), await person({ orientation: "portrait" })]) {
      const data = (await callPage(cgmsprint, "cgmsprint", who.id, who.pid, RANGE)) as {
        shell: { settings: { paperSize: string } };
      };
      expect(data.shell.settings.paperSize).toBe("a4");
      expect((await callPdf(cgmsprintPdf, "cgmsprint", who.id, who.pid, RANGE)).status).toBe(200);
    }
    expect(rendered.mock.calls.map(([options]) => [options.paper, options.landscape])).toEqual([
      ["a4", false],
      ["a4", false],
    ]);
  });

  it("the clinic's triage summary: its page's @page size and its PDF follow the clinic's paper", async () => {
    for (const [paper, size] of [
      ["letter", "letter portrait"],
      [undefined, "A4 portrait"],
    ] as const) {
      const clinicId = await clinic(paper);
      const request = async (path: string) =>
        new Request(`http://localhost${path}?period=14`, {
          headers: { Cookie: await cookieFor(clinicId) },
        });
      const page = await triageprint({
        request: await request("/triageprint"),
        params: {},
        context: {},
      });
      expect(page.pageSize).toBe(size);
      rendered.mockClear();
      const pdf = await triageprintPdf({
        request: await request("/triageprint.pdf"),
        params: {},
        context: {},
      });
      expect(pdf.status).toBe(200);
      expect(rendered.mock.calls[0]![0]).toMatchObject({ paper: paper ?? "a4" });
    }
  });
});
