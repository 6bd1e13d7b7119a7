/**
 * The errors of the device layer (frames read from a device, records and settings parsed from
 * them). Every problem a device's bytes can cause is one of these values; the parsers and the
 * frame reader return them and never throw, and the device link turns them into the upload's
 * failure messages. `detail` says what was found.
 */

/** What each kind carries besides its name. */
interface DetailOf {
  /** The frame's header ended (a second `2B 2B`) before its 8 bytes: the frame is under 12 bytes. */
  shortPacket: { headerBytes: number };
  /** The header held a 0x2F not followed by 0x2B or 0x2F, or a lone 0x2B. */
  badEscape: { byte: number };
  /** The 8 header bytes were not followed by the closing `2B 2B`. */
  badMarker: { byte: number };
  /** The header's CRC-8 byte does not match the CRC of its other bytes. */
  badCrc: { expected: number; received: number };
  /** The body's last 16 bytes are not the MD5 of the bytes before them. */
  badMd5: undefined;
  /** The body length is negative, too small to hold the MD5, or larger than any reply can be. */
  badLength: { length: number };
  /** Too many reads, or too many bytes, went by without a complete frame. */
  loopGuard: { reads: number; bytes: number };
  /** A record list whose length is not a multiple of its record size. */
  recordSize: { size: number; length: number };
  /** The AiDEX manual blood records were not a multiple of 12 bytes: an Equil handheld answered. */
  notManualBloodRecords: { length: number };
  /** The meter sent nothing that reads as a blood-glucose reading. */
  sureSameDevice: undefined;
  /** A meter line that starts like a reading but is not one. */
  badMeterLine: { line: number };
  /** A settings reply (basal program, setting list, serial number, clock) that cannot be read. */
  badSetting: { setting: string };
  /** A handheld whose software version starts with "1.": a CGM handheld, not a pump. */
  cgmPda: undefined;
  /** A software version that does not read x.y.z. */
  versionFormat: undefined;
  /** A pump handheld whose software is older than the oldest supported version. */
  wrongSoftwareVersion: undefined;
}

export type DeviceErrorKind = keyof DetailOf;

/** One error of the device layer; kinds with details carry them in `detail`. */
export type DeviceError = {
  [K in DeviceErrorKind]: DetailOf[K] extends undefined
    ? { readonly kind: K }
    : { readonly kind: K; readonly detail: DetailOf[K] };
}[DeviceErrorKind];

/** A value, or the device error that prevented it. */
export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DeviceError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function failed<T = never>(error: DeviceError): Result<T> {
  return { ok: false, error };
}
