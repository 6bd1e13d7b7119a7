import { Link } from "@remix-run/react";
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from "react";
import { useTranslation } from "react-i18next";
import { browserUploadApi } from "~/device/browser-api";
import { uploadCgm, type CgmLink } from "~/device/cgm-upload";
import {
  connectCgm,
  connectMeter,
  connectPump,
  simulatedCgm,
  simulatedMeter,
  simulatedPump,
  type Connected,
} from "~/device/connect";
import { uploadMeter, type MeterLink } from "~/device/meter-upload";
import { UploadErrorLog } from "~/device/error-log";
import { IDLE, UploadProgress, type UploadState } from "~/device/progress";
import { uploadPump, type PumpLink } from "~/device/pump-upload";
import { useHydrated } from "~/components/use-hydrated";
import * as f from "~/styles/form.css";
import * as layout from "~/styles/layout.css";

type DeviceKind = "equil" | "gocheck" | "aidex";
const DEVICES: readonly DeviceKind[] = ["equil", "gocheck", "aidex"];
const PASSWORD_LENGTH = 6;
/** The "choose it again" notice shows at most once in this many ms. */
const PERMISSION_NOTICE_MS = 5000;

type Props = {
  pid: number;
  timeZone: string;
  operatorUserId: number;
  patientUserId: number;
  home: string;
  uploads: string;
  importHref: string;
  simulated: boolean;
};

/**
 * Step 4 of the upload centre: the device choice, the pump's password dialog, the upload and its
 * progress notification. Without JavaScript, or in a browser without WebUSB and Web Serial, it
 * says which browsers work and offers the CSV import.
 */
export function DeviceUpload(props: Props) {
  const { t } = useTranslation("upload");
  const hydrated = useHydrated();
  const [device, setDevice] = useState<DeviceKind | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<"real" | "simulated" | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const lastNotice = useRef(0);
  const progress = useMemo(() => new UploadProgress(), []);
  const [state, setState] = useState<UploadState>(IDLE);
  const api = useMemo(() => browserUploadApi(), []);
  useEffect(() => progress.subscribe(setState), [progress]);
  // Every failed upload is reported to the server's error log (buffered and sent in bursts).
  useEffect(() => {
    const log = new UploadErrorLog(async (list) => (await api.uploadErrLog(list)).code === 200);
    const stop = progress.subscribe((s) => {
      if (s.status !== "failed") return;
      const message = s.values?.message ? `: ${s.values.message}` : "";
      log.add({
        operatorUserId: props.operatorUserId,
        patientUserId: props.patientUserId,
        content: `${device ?? "device"} upload failed at ${s.percent} % (${s.failure})${message}`,
      });
    });
    return () => {
      stop();
      void log.flush().finally(() => log.stop());
    };
  }, [api, progress, device, props.operatorUserId, props.patientUserId]);

  const support = hydrated ? { usb: "usb" in navigator, serial: "serial" in navigator } : null;
  const supported = (kind: DeviceKind) =>
    (kind === "gocheck" ? support?.serial : support?.usb) ?? false;
  const busy = state.status === "active";
  const request = { pid: props.pid, timeZone: props.timeZone };

  async function runPump(connected: Connected<PumpLink>, password: string | null) {
    if (!connected.ok) return connectionProblem(connected);
    await uploadPump(connected.link, api, { ...request, password }, progress);
  }
  async function runMeter(connected: Connected<MeterLink>) {
    if (!connected.ok) return connectionProblem(connected);
    await uploadMeter(connected.link, api, request, progress);
  }
  async function runCgm(connected: Connected<CgmLink>) {
    if (!connected.ok) return connectionProblem(connected);
    await uploadCgm(connected.link, api, request, progress);
  }
  function connectionProblem(connected: Extract<Connected<unknown>, { ok: false }>) {
    if (connected.reason === "cancelled") return;
    if (connected.reason === "needsSecondClick") {
      if (Date.now() - lastNotice.current < PERMISSION_NOTICE_MS) return;
      setNotice("device.permissionAgain");
      lastNotice.current = Date.now();
      return;
    }
    progress.fail(
      connected.reason === "notSupported"
        ? "notSupported"
        : (connected.failure ?? "deviceOpenFailed"),
    );
  }

  function start(simulated: boolean) {
    setProblem(null);
    setNotice(null);
    if (!device) return setProblem("device.choseFail");
    progress.reset();
    if (device === "equil") return setAsking(simulated ? "simulated" : "real");
    if (device === "gocheck")
      void (simulated
        ? simulatedMeter(props.pid).then((link) => runMeter({ ok: true, link }))
        : connectMeter().then(runMeter));
    if (device === "aidex")
      void (simulated
        ? simulatedCgm(props.pid).then((link) => runCgm({ ok: true, link }))
        : connectCgm().then(runCgm));
  }

  function withPassword(password: string | null) {
    const mode = asking;
    setAsking(null);
    if (mode === "simulated")
      void simulatedPump(props.pid).then((link) => runPump({ ok: true, link }, password));
    else void connectPump().then((connected) => runPump(connected, password));
  }

  if (!hydrated) {
    return (
      <>
        <DeviceList device={device} onChoose={setDevice} disabled />
        <p role="note">
          {t("device.noScript")} <Link to={props.importHref}>{t("device.importInstead")}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <DeviceList
        device={device}
        onChoose={(kind) => (setDevice(kind), setProblem(null))}
        disabled={busy}
      />
      {device && !supported(device) ? (
        <p role="note">
          {t("device.unsupported")} <Link to={props.importHref}>{t("device.importInstead")}</Link>
        </p>
      ) : null}
      {problem ? (
        <p className={f.errors} role="alert">
          {t(problem)}
        </p>
      ) : null}
      {notice ? (
        <p className={f.notice} role="status">
          {t(notice)}
        </p>
      ) : null}
      <div className={f.links}>
        <button
          type="button"
          className={layout.button}
          onClick={() => start(false)}
          disabled={busy || (device !== null && !supported(device))}
        >
          {t("device.upload")}
        </button>
        {props.simulated ? (
          <button
            type="button"
            className={layout.buttonSecondary}
            onClick={() => start(true)}
            disabled={busy}
          >
            {t("device.simulated")}
          </button>
        ) : null}
      </div>
      {asking ? <PasswordDialog onDone={withPassword} /> : null}
      <ProgressNotice
        state={state}
        home={props.home}
        uploads={props.uploads}
        onReset={() => progress.reset()}
      />
    </>
  );
}

function DeviceList({
  device,
  onChoose,
  disabled,
}: {
  device: DeviceKind | null;
  onChoose: (kind: DeviceKind) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation("upload");
  return (
    <fieldset className={f.fieldset} disabled={disabled}>
      <legend className={f.label}>{t("device.choose")}</legend>
      {DEVICES.map((kind) => (
        <label key={kind} className={f.choice}>
          <input
            type="radio"
            name="device"
            value={kind}
            checked={device === kind}
            onChange={() => onChoose(kind)}
          />
          {t(`device.kinds.${kind}`)} (<a href="/supports#devices">{t("device.versions")}</a>)
        </label>
      ))}
    </fieldset>
  );
}

/** Six masked boxes, one character each: typing moves on, Backspace moves back, a pasted password fills them all. */
function PasswordDialog({ onDone }: { onDone: (password: string | null) => void }) {
  const { t } = useTranslation("upload");
  const [chars, setChars] = useState<string[]>(Array.from({ length: PASSWORD_LENGTH }, () => ""));
  const [invalid, setInvalid] = useState(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  useEffect(() => boxes.current[0]?.focus(), []);

  const set = (index: number, value: string) => {
    const next = [...chars];
    next[index] = value.slice(-1);
    setChars(next);
    if (value && index < PASSWORD_LENGTH - 1) boxes.current[index + 1]?.focus();
  };
  const onKey = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace" && !chars[index] && index > 0) boxes.current[index - 1]?.focus();
    if (event.key === "Enter") confirm();
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData("text").trim().slice(0, PASSWORD_LENGTH);
    if (!text) return;
    event.preventDefault();
    setChars(Array.from({ length: PASSWORD_LENGTH }, (_, i) => text[i] ?? ""));
    boxes.current[Math.min(text.length, PASSWORD_LENGTH - 1)]?.focus();
  };
  function confirm() {
    const password = chars.join("");
    if (password.length !== PASSWORD_LENGTH) return setInvalid(true);
    onDone(password);
  }
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby="password-title"
      aria-describedby="password-hint"
      className={f.fieldset}
      data-testid="password-dialog"
    >
      <h4 id="password-title">{t("device.password.title")}</h4>
      <p id="password-hint" className={f.hint}>
        {t("device.password.hint")}
      </p>
      <div className={f.links}>
        {chars.map((char, i) => (
          <input
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            className={f.input}
            style={{ width: "3rem", textAlign: "center" }}
            type="password"
            inputMode="text"
            autoComplete="off"
            maxLength={1}
            value={char}
            aria-label={t("device.password.box", { n: i + 1 })}
            aria-invalid={invalid}
            onChange={(e) => set(i, e.currentTarget.value)}
            onKeyDown={onKey(i)}
            onPaste={onPaste}
          />
        ))}
      </div>
      {invalid ? (
        <p className={f.errors} role="alert">
          {t("device.password.passwordMsg")}
        </p>
      ) : null}
      <div className={f.links}>
        <button type="button" className={layout.button} onClick={confirm}>
          {t("device.password.confirm")}
        </button>
        <button type="button" className={layout.buttonSecondary} onClick={() => onDone(null)}>
          {t("device.password.skip")}
        </button>
      </div>
    </div>
  );
}

function ProgressNotice({
  state,
  home,
  uploads,
  onReset,
}: {
  state: UploadState;
  home: string;
  uploads: string;
  onReset: () => void;
}) {
  const { t } = useTranslation("upload");
  if (state.status === "idle") return null;
  const percent = Math.min(100, state.percent);
  return (
    <section
      aria-live="polite"
      className={f.fieldset}
      data-testid="upload-progress"
      data-status={state.status}
    >
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t("device.upload")}
        style={{ height: "0.75rem", background: "#e3e8ef", borderRadius: "4px" }}
      >
        <div
          style={{
            width: `${percent}%`,
            height: "100%",
            background: state.status === "failed" ? "#b3261e" : "#0b5cab",
            borderRadius: "4px",
          }}
        />
      </div>
      {state.status === "active" ? <p>{t("device.status.active", { percent })}</p> : null}
      {state.status === "success" ? (
        <>
          <p role="status">{t("device.status.success")}</p>
          <p>
            {t("device.summary", {
              added: state.added,
              duplicates: state.duplicates,
              flagged: state.flagged,
            })}
          </p>
          {state.otherPatientDevice ? <p role="note">⚠ {t("device.otherPatientDevice")}</p> : null}
          <p className={f.links}>
            <Link to={home}>{t("device.seeData")}</Link>
            <Link to={uploads}>{t("views:uploads.title")}</Link>
          </p>
        </>
      ) : null}
      {state.status === "noNewRecords" ? (
        <p role="status">{t("device.status.noNewRecords")}</p>
      ) : null}
      {state.status === "failed" ? (
        <>
          <p role="alert">{t("device.status.failed", { percent })}</p>
          <p>{t(`device.failures.${state.failure}`, { message: "", ...state.values })}</p>
          <ul>
            <li>{t("device.checkDriver")}</li>
            <li>{t("device.checkUsb")}</li>
          </ul>
          <p>
            <a href="/supports">{t("device.learnMore")}</a>
          </p>
        </>
      ) : null}
      {state.status !== "active" ? (
        <button type="button" className={layout.buttonSecondary} onClick={onReset}>
          {t("device.reset")}
        </button>
      ) : null}
    </section>
  );
}
