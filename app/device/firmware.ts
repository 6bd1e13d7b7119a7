import { checkPumpVersion } from "~/ingest/pump-rules";
import { carbEncodingOf, type CarbEncoding } from "~/report/pump-day";
import { failed, ok, type Result } from "./errors";

/**
 * The pump handheld's software version, checked before anything else is read. It must read
 * x.y.z (an optional letter suffix, as in 5.0.3C); a version starting with "1." is a CGM
 * handheld, which the pump upload refuses; pump software older than 5.0.0 is not supported.
 * The version also says how carbohydrate is stored: below 5.2.0 as ten times the grams, except
 * 5.0.10 and 5.0.3C, which store grams.
 */
export interface PumpFirmware {
  readonly version: string;
  readonly carbEncoding: Exclude<CarbEncoding, "unknown">;
}

const PROBLEM_KINDS = {
  "errors.cgmPda": "cgmPda",
  "errors.versionFormat": "versionFormat",
  "errors.wrongSoftwareVersion": "wrongSoftwareVersion",
} as const;

export function checkPumpFirmware(text: string | undefined): Result<PumpFirmware> {
  const checked = checkPumpVersion(text);
  if (!checked.ok) return failed({ kind: PROBLEM_KINDS[checked.key] });
  const carbEncoding = carbEncodingOf(checked.version);
  return carbEncoding === "unknown" ? failed({ kind: "versionFormat" }) : ok({ version: checked.version, carbEncoding });
}
