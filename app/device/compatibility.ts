/**
 * What the support pages say about browsers and devices, from the rules the upload code applies.
 */
import { CGM_HANDHELD_VERSION_PREFIX, MIN_PUMP_FIRMWARE } from "~/ingest/pump-rules";
import { CARB_SPECIAL_VERSIONS, CARB_VERSION_THRESHOLD } from "~/report/pump-carbs";

/**
 * The first desktop version of each browser that exposes WebUSB (`navigator.usb`: the pump and
 * CGM handhelds) and Web Serial (`navigator.serial`: the meter); null where it never shipped.
 * Source: MDN browser-compat-data, api.Navigator.usb and api.Navigator.serial
 * (https://developer.mozilla.org/docs/Web/API/Navigator/usb, .../Navigator/serial), matching
 * https://caniuse.com/webusb and https://caniuse.com/web-serial.
 */
export type UploadBrowser = {
  name: string;
  webUsb: number | null;
  webSerial: number | null;
};

const CHROME: UploadBrowser = { name: "Google Chrome", webUsb: 61, webSerial: 89 };
const EDGE: UploadBrowser = { name: "Microsoft Edge", webUsb: 79, webSerial: 89 };

export const UPLOAD_BROWSERS: readonly UploadBrowser[] = [
  CHROME,
  EDGE,
  { name: "Opera", webUsb: 48, webSerial: 75 },
  { name: "Mozilla Firefox", webUsb: null, webSerial: null },
  { name: "Apple Safari", webUsb: null, webSerial: null },
];

/** The Chrome and Edge version from which both APIs are there, so every device can be uploaded. */
export const ALL_DEVICES_FROM_VERSION = Math.max(
  ...[CHROME, EDGE].flatMap((b) => [b.webUsb ?? Infinity, b.webSerial ?? Infinity]),
);

/** The handheld software versions the upload accepts and the carbohydrate rules distinguish. */
export const HANDHELD_SOFTWARE = {
  pumpFrom: MIN_PUMP_FIRMWARE,
  carbGramsFrom: CARB_VERSION_THRESHOLD,
  carbGramsAlso: CARB_SPECIAL_VERSIONS,
  cgmPrefix: CGM_HANDHELD_VERSION_PREFIX,
} as const;
