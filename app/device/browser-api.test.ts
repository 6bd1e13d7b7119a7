import { describe, expect, it } from "vitest";
import { browserUploadApi } from "./browser-api";

describe("browserUploadApi", () => {
  it("calls the server's paths with the session (same-origin), JSON bodies and the envelope answered", async () => {
    const seen: { path: string; method: string; body: unknown; credentials: string | undefined }[] =
      [];
    const api = browserUploadApi(async (path, init) => {
      seen.push({
        path,
        method: init.method ?? "GET",
        body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
        credentials: init.credentials,
      });
      return Response.json({ code: 200, msg: "OK", data: 42 });
    });
    expect(
      await api.getSliceId({
        pid: 3,
        deviceKind: "equil",
        deviceSn: "EQ1",
        pdaVersion: "5.3.0",
        total: 10,
        timeZone: "UTC",
      }),
    ).toEqual({ code: 200, msg: "OK", data: 42 });
    await api.checkSave(42);
    await api.findLastRecord(3, 2);
    await api.saveSugar({ pid: 3, deviceSn: "GC1", timeZone: "UTC", dataList: [] });
    expect(seen).toEqual([
      {
        path: "/api/patient-data/getSliceId",
        method: "POST",
        body: {
          pid: 3,
          deviceKind: "equil",
          deviceSn: "EQ1",
          pdaVersion: "5.3.0",
          total: 10,
          timeZone: "UTC",
        },
        credentials: "same-origin",
      },
      {
        path: "/api/patient-data/checkSave?sliceId=42",
        method: "GET",
        body: undefined,
        credentials: "same-origin",
      },
      {
        path: "/api/patient-data/findLastRecord?pid=3&origin=2",
        method: "GET",
        body: undefined,
        credentials: "same-origin",
      },
      {
        path: "/api/patient-data/saveSugar",
        method: "POST",
        body: { pid: 3, deviceSn: "GC1", timeZone: "UTC", dataList: [] },
        credentials: "same-origin",
      },
    ]);
  });

  it("a call that cannot be made rejects (the upload steps retry or fail it)", async () => {
    const api = browserUploadApi(async () => Promise.reject(new TypeError("Failed to fetch")));
    await expect(api.sliceSave({ sliceId: 1, index: 0, dataList: [] })).rejects.toThrow(
      "Failed to fetch",
    );
  });
});
