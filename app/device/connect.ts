import { createAidexLink } from "./aidex-link";
import type { CgmLink } from "./cgm-upload";
import { createEquilLink } from "./equil-link";
import type { MeterLink } from "./meter-upload";
import type { UploadFailureKey } from "./progress";
import type { PumpLink } from "./pump-upload";
import { chooseMeterPort, meterLinkOf } from "./serial-transport";
import type { Transport } from "./transport";
import { connectEquil } from "./usb-transport";

/**
 * The devices of the upload centre, as links the upload steps run on: the pump handheld and the
 * AiDEX CGM handheld over WebUSB (the same accessory switch), the meter over Web Serial, and (demo and tests only) simulated ones, loaded only when
 * asked for so that the page's code stays small.
 */
export type Connected<L> =
  | { ok: true; link: L }
  | {
      ok: false;
      reason: "cancelled" | "needsSecondClick" | "notSupported" | "openFailed";
      failure?: UploadFailureKey;
    };

async function connectHandheld<L>(linkOf: (transport: Transport) => L): Promise<Connected<L>> {
  if (!("usb" in navigator)) return { ok: false, reason: "notSupported" };
  const outcome = await connectEquil(navigator.usb);
  if (outcome.kind === "ready") return { ok: true, link: linkOf(outcome.transport) };
  if (outcome.kind === "failed")
    return { ok: false, reason: "openFailed", failure: outcome.failure };
  return { ok: false, reason: outcome.kind };
}

export const connectPump = () =>
  connectHandheld<PumpLink>((transport) => createEquilLink(transport));
export const connectCgm = () => connectHandheld<CgmLink>((transport) => createAidexLink(transport));

export async function connectMeter(): Promise<Connected<MeterLink>> {
  if (!("serial" in navigator)) return { ok: false, reason: "notSupported" };
  const outcome = await chooseMeterPort(navigator.serial);
  if (outcome.kind === "ready") return { ok: true, link: meterLinkOf(outcome.transport) };
  if (outcome.kind === "failed")
    return { ok: false, reason: "openFailed", failure: outcome.failure };
  return { ok: false, reason: "cancelled" };
}

/** The day before `today` minus `days` - 1: where a simulated device's history starts. */
function daysBefore(today: Date, days: number): string {
  return new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate() - days))
    .toISOString()
    .slice(0, 10);
}

/** A simulated device's serial: one per patient, so that no patient's upload looks like another's device. */
export const simulatedSerial = (prefix: string, pid: number) =>
  `${prefix}${String(pid).padStart(6, "0")}`;

/** A simulated handheld with the three days before today, answering a little slowly, as a device does. */
export async function simulatedPump(pid: number): Promise<PumpLink> {
  const { createHandheld, SimulatedTransport } = await import("./simulator/equil");
  const handheld = createHandheld({
    serial: simulatedSerial("EQSIM", pid),
    start: daysBefore(new Date(), 3),
    days: 3,
    seed: 1,
  });
  return createEquilLink(new SimulatedTransport(handheld, { replyDelayMs: 40 }));
}

/** A simulated meter with the two weeks before today. */
export async function simulatedMeter(pid: number): Promise<MeterLink> {
  const { simulatedMeterLink } = await import("./simulator/meter");
  return simulatedMeterLink({
    serial: simulatedSerial("GCSIM", pid),
    today: daysBefore(new Date(), 0),
    days: 14,
    delayMs: 2000,
  });
}

/** A simulated AiDEX handheld with the three days before today. */
export async function simulatedCgm(pid: number): Promise<CgmLink> {
  const { createAidex, SimulatedAidexTransport } = await import("./simulator/aidex");
  const aidex = createAidex({
    serial: simulatedSerial("AXSIM", pid),
    start: daysBefore(new Date(), 3),
    days: 3,
    seed: 1,
  });
  return createAidexLink(new SimulatedAidexTransport(aidex, { replyDelayMs: 40 }));
}
