import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  ALL_DEVICES_FROM_VERSION,
  HANDHELD_SOFTWARE,
  UPLOAD_BROWSERS,
} from "~/device/compatibility";
import { ACCESSORY_MODE, NORMAL_MODE } from "~/device/usb-transport";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";

/**
 * The support content shared by the support page and the printable user guide: systems and
 * browsers, devices and their software, upload preparation, driver guides, report printing. Each
 * section carries the anchor other pages link to.
 */

/** The printed page of the guide and the terms: A4 portrait, 15 mm margins. */
export const DOCUMENT_PAGE = "@page { size: A4 portrait; margin: 15mm; }";

/** How Windows names a USB device's ids: `USB\VID_05C6&PID_9120`. */
function usbHardwareId(ids: { vendorId: number; productId: number }): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  return `USB\\VID_${hex(ids.vendorId)}&PID_${hex(ids.productId)}`;
}

function Steps({ prefix, count }: { prefix: string; count: number }) {
  const { t } = useTranslation("support");
  return (
    <ol className={p.steps}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>{t(`${prefix}.step${i + 1}`)}</li>
      ))}
    </ol>
  );
}

/** A table in a region of its own, so that a narrow screen scrolls it with the keyboard too. */
function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className={p.tableRegion} role="region" aria-label={caption} tabIndex={0}>
      <table className={p.table}>
        <caption>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Environments() {
  const { t } = useTranslation("support");
  const support = (version: number | null) =>
    version === null ? t("environments.no") : t("environments.from", { version });
  return (
    <section id="environments" className={s.card} aria-labelledby="environments-title">
      <h2 id="environments-title">{t("environments.title")}</h2>
      <h3>{t("environments.osTitle")}</h3>
      <ul>
        <li>{t("environments.windows")}</li>
        <li>{t("environments.mac")}</li>
        <li>{t("environments.other")}</li>
      </ul>
      <h3>{t("environments.browsersTitle")}</h3>
      <Table caption={t("environments.caption")}>
        <thead>
          <tr>
            <th scope="col">{t("environments.browser")}</th>
            <th scope="col">{t("environments.webUsb")}</th>
            <th scope="col">{t("environments.webSerial")}</th>
            <th scope="col">{t("environments.view")}</th>
          </tr>
        </thead>
        <tbody>
          {UPLOAD_BROWSERS.map((browser) => (
            <tr key={browser.name}>
              <th scope="row">{browser.name}</th>
              <td>{support(browser.webUsb)}</td>
              <td>{support(browser.webSerial)}</td>
              <td>{t("environments.yes")}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p>{t("environments.recommended", { version: ALL_DEVICES_FROM_VERSION })}</p>
      <p>{t("environments.noScript")}</p>
    </section>
  );
}

export function Devices() {
  const { t } = useTranslation("support");
  const { pumpFrom, carbGramsFrom, carbGramsAlso, cgmPrefix } = HANDHELD_SOFTWARE;
  const rows = [
    { key: "pump", software: t("devices.pump.software", { version: pumpFrom }) },
    { key: "cgm", software: t("devices.cgm.software", { prefix: cgmPrefix }) },
    { key: "meter", software: t("devices.meter.software") },
  ];
  return (
    <section id="devices" className={s.card} aria-labelledby="devices-title">
      <h2 id="devices-title">{t("devices.title")}</h2>
      <Table caption={t("devices.caption")}>
        <thead>
          <tr>
            <th scope="col">{t("devices.device")}</th>
            <th scope="col">{t("devices.models")}</th>
            <th scope="col">{t("devices.connection")}</th>
            <th scope="col">{t("devices.software")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{t(`devices.${row.key}.name`)}</th>
              <td>{t(`devices.${row.key}.models`)}</td>
              <td>{t(`devices.${row.key}.connection`)}</td>
              <td>{row.software}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ul>
        <li>{t("devices.carbs", { version: carbGramsFrom, special: carbGramsAlso.join(", ") })}</li>
        <li>{t("devices.cgmVersion", { prefix: cgmPrefix })}</li>
        <li>{t("devices.clock")}</li>
      </ul>
    </section>
  );
}

export function UploadPreparation() {
  const { t } = useTranslation("support");
  return (
    <section id="upload" className={s.card} aria-labelledby="upload-title">
      <h2 id="upload-title">{t("upload.title")}</h2>
      <Steps prefix="upload" count={6} />
    </section>
  );
}

/** The driver guides; `downloads` is what the page offers for getting the files. */
export function DriverGuides({ downloads }: { downloads: ReactNode }) {
  const { t } = useTranslation("support");
  return (
    <section id="drivers-help" className={s.card} aria-labelledby="drivers-help-title">
      <h2 id="drivers-help-title">{t("drivers.title")}</h2>
      <p>{t("drivers.intro")}</p>
      {downloads}
      <div className={p.guides}>
        <div id="driver-windows">
          <h3>{t("drivers.windows.title")}</h3>
          <Steps prefix="drivers.windows" count={4} />
          <h3>{t("drivers.windowsCheck.title")}</h3>
          <Steps prefix="drivers.windowsCheck" count={4} />
          <p>
            {t("drivers.windowsCheck.hardwareIds", {
              normal: usbHardwareId(NORMAL_MODE),
              accessory: usbHardwareId(ACCESSORY_MODE),
            })}
          </p>
          <ConnectDiagram label={t("drivers.diagrams.connect")} />
          <DeviceManagerDiagram label={t("drivers.diagrams.deviceManager")} />
        </div>
        <div id="driver-mac">
          <h3>{t("drivers.mac.title")}</h3>
          <Steps prefix="drivers.mac" count={4} />
          <h3>{t("drivers.macCheck.title")}</h3>
          <Steps prefix="drivers.macCheck" count={4} />
          <SystemInformationDiagram label={t("drivers.diagrams.systemInformation")} />
        </div>
      </div>
      <p>{t("drivers.check")}</p>
    </section>
  );
}

/** Report printing: the pump and BG reports (#printsettings), the CGM data reports (#cgmsprintsettings). */
export function PrintPreparation({ settingsLink }: { settingsLink: boolean }) {
  const { t } = useTranslation("support");
  return (
    <>
      <section id="printsettings" className={s.card} aria-labelledby="print-title">
        <h2 id="print-title">{t("print.title")}</h2>
        <p>{t("print.intro")}</p>
        <ul>
          <li>{t("print.paper")}</li>
          <li>{t("print.orientation")}</li>
          <li>{t("print.dialog")}</li>
          <li>{t("print.pdf")}</li>
        </ul>
        <p>
          {t("print.settings")}{" "}
          {settingsLink ? <a href="/newsetting">{t("print.settingsLink")}</a> : null}
        </p>
      </section>
      <section id="cgmsprintsettings" className={s.card} aria-labelledby="cgm-print-title">
        <h2 id="cgm-print-title">{t("cgmPrint.title")}</h2>
        <ul>
          <li>{t("cgmPrint.range")}</li>
          <li>{t("cgmPrint.paper")}</li>
          <li>{t("cgmPrint.dialog")}</li>
        </ul>
      </section>
    </>
  );
}

const INK = "#1b2430";
const FAINT = "#d5dbe3";
const BRAND = "#0b5cab";
const OK = "#1e7b34";

/** A computer with the device on its USB cable. */
function ConnectDiagram({ label }: { label: string }) {
  return (
    <svg className={p.diagram} viewBox="0 0 240 110" role="img" aria-label={label}>
      <rect x="8" y="10" width="110" height="70" rx="4" fill="#fff" stroke={INK} strokeWidth="2" />
      <rect x="16" y="18" width="94" height="54" fill={FAINT} />
      <path d="M40 80h46l8 16H32z" fill={INK} />
      <rect x="118" y="50" width="10" height="8" fill={BRAND} />
      <path d="M128 54 C160 54 160 70 188 70" fill="none" stroke={BRAND} strokeWidth="3" />
      <rect x="188" y="44" width="42" height="56" rx="8" fill="#fff" stroke={INK} strokeWidth="2" />
      <rect x="196" y="52" width="26" height="18" rx="2" fill={FAINT} />
      <circle cx="209" cy="86" r="6" fill="none" stroke={INK} strokeWidth="2" />
    </svg>
  );
}

/** A Device Manager window: groups in a tree, the device's row marked as working. */
function DeviceManagerDiagram({ label }: { label: string }) {
  return (
    <svg className={p.diagram} viewBox="0 0 240 130" role="img" aria-label={label}>
      <rect x="4" y="4" width="232" height="122" rx="4" fill="#fff" stroke={INK} strokeWidth="2" />
      <rect x="4" y="4" width="232" height="18" fill={FAINT} />
      {[34, 52, 88, 106].map((y) => (
        <g key={y}>
          <path d={`M16 ${y + 4}l6 4-6 4z`} fill={INK} />
          <rect x="30" y={y + 2} width="120" height="8" fill={FAINT} />
        </g>
      ))}
      <rect x="36" y="68" width="190" height="14" fill="#e8f0fa" stroke={BRAND} />
      <rect x="44" y="71" width="12" height="8" fill={BRAND} />
      <rect x="62" y="72" width="110" height="6" fill={INK} />
      <path d="M206 75l4 4 8-8" fill="none" stroke={OK} strokeWidth="2.5" />
    </svg>
  );
}

/** A System Information window: Hardware with USB selected, the device in the USB tree. */
function SystemInformationDiagram({ label }: { label: string }) {
  return (
    <svg className={p.diagram} viewBox="0 0 240 130" role="img" aria-label={label}>
      <rect x="4" y="4" width="232" height="122" rx="6" fill="#fff" stroke={INK} strokeWidth="2" />
      <circle cx="16" cy="14" r="3.5" fill="#d7261e" />
      <circle cx="28" cy="14" r="3.5" fill="#e0a800" />
      <circle cx="40" cy="14" r="3.5" fill={OK} />
      <path d="M4 24h232M80 24v102" stroke={FAINT} strokeWidth="2" />
      {[34, 48, 76, 90].map((y) => (
        <rect key={y} x="14" y={y} width="56" height="7" fill={FAINT} />
      ))}
      <rect x="10" y="60" width="66" height="13" fill="#e8f0fa" stroke={BRAND} />
      <rect x="16" y="63" width="40" height="7" fill={BRAND} />
      <rect x="92" y="36" width="90" height="7" fill={FAINT} />
      <rect x="104" y="52" width="120" height="14" fill="#e8f0fa" stroke={BRAND} />
      <rect x="110" y="56" width="80" height="6" fill={INK} />
      <rect x="92" y="76" width="110" height="7" fill={FAINT} />
    </svg>
  );
}
