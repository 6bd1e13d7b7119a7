import { useLocation } from "@remix-run/react";
import { useContext, useEffect, useRef, type ReactNode } from "react";
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
  DateInput,
  DatePicker,
  DateRangePicker,
  DateSegment,
  Dialog,
  FieldError,
  FieldErrorContext,
  Group,
  Heading,
  I18nProvider,
  Label,
  Popover,
  RangeCalendar,
  Text,
  type DateRange,
  type DateValue,
} from "react-aria-components";
import { useTranslation } from "react-i18next";
import { calendarDateOf, isoOfCalendarDate, type Message } from "~/report/date-picker";
import type { IsoDate } from "~/report/day";
import * as d from "~/styles/date-fields.css";
import * as f from "~/styles/form.css";
import { CalendarIcon } from "./icons";
import { useHydrated } from "./use-hydrated";

/**
 * The date fields of the GET forms of the reports and data views, one pair for a range and one
 * for a day. Until the page's JavaScript runs (and always without it) they are text fields that
 * take YYYY/MM/DD. Once it runs they are react-aria date pickers in the page's language: the
 * segments in the language's date order, a calendar (from the button beside the fields) that
 * starts the week on the language's first day and offers no day after the patient's today, a
 * description of the limits, and a check that refuses a range with the server's own message
 * before the form is sent. The pickers send the dates as YYYY-MM-DD under the same names; the
 * server reads both forms and checks every range itself.
 */

type Names = { readonly start: string; readonly end: string };

export interface DateRangeFieldsProps {
  /** The query parameters of the two dates, e.g. `start` and `end`. */
  readonly names: Names;
  /** The text fields' labels (without JavaScript); they name the YYYY/MM/DD form. */
  readonly textLabels: Names;
  /** The picker's label (with JavaScript). */
  readonly label: string;
  /** The dates in the fields: as typed when the server refused them, else YYYY/MM/DD. */
  readonly values: Names;
  /** The server refused the dates shown. */
  readonly invalid: boolean;
  /** The patient's today (YYYY-MM-DD): no later day can be picked. */
  readonly today: IsoDate;
  /** The rule's limits, under the picker. */
  readonly limits: Message;
  /** The translation key of the server's refusal of a range, or null when it would accept it. */
  readonly problemOf: (start: IsoDate, end: IsoDate) => string | null;
}

/** A range of days: two text fields without JavaScript, a react-aria `DateRangePicker` with it. */
export function DateRangeFields(props: DateRangeFieldsProps) {
  const hydrated = useHydrated();
  const navigation = useLocation().key;
  const { names, textLabels, values, invalid } = props;
  if (!hydrated)
    return (
      <>
        <TextDateField
          name={names.start}
          label={textLabels.start}
          value={values.start}
          invalid={invalid}
        />
        <TextDateField
          name={names.end}
          label={textLabels.end}
          value={values.end}
          invalid={invalid}
        />
      </>
    );
  // Every page the form leads to starts the picker afresh from the server's values, even when
  // they are the ones it showed (a quick range equal to the default range).
  return (
    <RangePicker key={`${navigation} ${values.start} ${values.end} ${props.today}`} {...props} />
  );
}

export interface DateFieldProps {
  readonly name: string;
  /** The text field's label (without JavaScript); it names the YYYY/MM/DD form. */
  readonly textLabel: string;
  /** The picker's label (with JavaScript). */
  readonly label: string;
  /** The date in the field: as typed when the server refused it, else YYYY/MM/DD. */
  readonly value: string;
  readonly invalid: boolean;
  /** The patient's today (YYYY-MM-DD): no later day can be picked. */
  readonly today: IsoDate;
  readonly limits: Message;
  /** The translation key of the server's refusal of a day, or null when it would accept it. */
  readonly problemOf: (date: IsoDate) => string | null;
}

/** One day: a text field without JavaScript, a react-aria `DatePicker` with it. */
export function DateField(props: DateFieldProps) {
  const hydrated = useHydrated();
  const navigation = useLocation().key;
  if (!hydrated)
    return (
      <TextDateField
        name={props.name}
        label={props.textLabel}
        value={props.value}
        invalid={props.invalid}
      />
    );
  return <DayPicker key={`${navigation} ${props.value} ${props.today}`} {...props} />;
}

/** The YYYY/MM/DD text field of the JavaScript-off forms. */
function TextDateField({
  name,
  label,
  value,
  invalid,
}: {
  name: string;
  label: string;
  value: string;
  invalid: boolean;
}) {
  return (
    <label className={f.inlineField}>
      {label}
      <input
        key={`${name}-${value}`}
        className={f.inlineInput}
        name={name}
        defaultValue={value}
        placeholder="YYYY/MM/DD"
        inputMode="numeric"
        autoComplete="off"
        size={12}
        aria-invalid={invalid || undefined}
      />
    </label>
  );
}

/**
 * Enter in a date segment sends the form, as it does in a text field (react-aria's segments are
 * not inputs, so the browser would not, and they keep their key presses to themselves: hence a
 * listener on the picker in the capture phase).
 */
function useSubmitOnEnter() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const picker = ref.current;
    if (!picker) return;
    const submit = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== "Enter" || target.getAttribute("role") !== "spinbutton") return;
      event.preventDefault();
      target.closest("form")?.requestSubmit();
    };
    picker.addEventListener("keydown", submit, true);
    return () => picker.removeEventListener("keydown", submit, true);
  }, []);
  return ref;
}

/** The error under a picker, announced when it appears. */
function PickerError() {
  const validation = useContext(FieldErrorContext);
  if (!validation?.isInvalid) return null;
  return (
    <div role="alert" className={d.errorRow}>
      <FieldError className={d.error} />
    </div>
  );
}

function CalendarParts({ cellClass }: { cellClass: string }) {
  return (
    <>
      <header className={d.calendarHeader}>
        <Button slot="previous" className={d.navButton}>
          <span aria-hidden="true">‹</span>
        </Button>
        <Heading className={d.calendarHeading} />
        <Button slot="next" className={d.navButton}>
          <span aria-hidden="true">›</span>
        </Button>
      </header>
      <CalendarGrid className={d.grid}>
        <CalendarGridHeader>
          {(day) => <CalendarHeaderCell className={d.weekday}>{day}</CalendarHeaderCell>}
        </CalendarGridHeader>
        <CalendarGridBody>
          {(date) => <CalendarCell date={date} className={cellClass} />}
        </CalendarGridBody>
      </CalendarGrid>
    </>
  );
}

/** The typed part of a picker: its date's segments (one of a range's two dates with `slot`). */
function Segments({ slot }: { slot?: "start" | "end" }) {
  return (
    <DateInput slot={slot} className={d.dateInput}>
      {(segment) => <DateSegment segment={segment} className={d.segment} />}
    </DateInput>
  );
}

/** The button that opens a picker's calendar. */
function CalendarButton() {
  return (
    <Button className={d.calendarButton}>
      <CalendarIcon />
    </Button>
  );
}

/** The calendar's popover dialog. */
function CalendarPopup({ children }: { children: ReactNode }) {
  return (
    <Popover className={d.popover}>
      <Dialog className={d.dialog}>{children}</Dialog>
    </Popover>
  );
}

function PickerFrame({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={i18n.language}>{children}</I18nProvider>;
}

/** A picker's label, with the rule's limits beside it as its description. */
function PickerLabel({ label, limits }: { label: string; limits: Message }) {
  const { t } = useTranslation();
  return (
    <div className={d.labelRow}>
      <Label className={d.label}>{label}</Label>
      <Text slot="description" className={d.description}>
        {t(limits.key, limits.values)}
      </Text>
    </div>
  );
}

function RangePicker({ names, label, values, today, limits, problemOf }: DateRangeFieldsProps) {
  const { t } = useTranslation();
  const submitRef = useSubmitOnEnter();
  const start = calendarDateOf(values.start);
  const end = calendarDateOf(values.end);
  // A start or end alone (the server said the other is missing) stays in its field.
  const initial = start || end ? ({ start, end } as unknown as DateRange) : null;
  const validate = (range: DateRange | null) => {
    if (!range?.start || !range.end) return null;
    const key = problemOf(isoOfCalendarDate(range.start), isoOfCalendarDate(range.end));
    return key ? t(key) : null;
  };
  return (
    <PickerFrame>
      <DateRangePicker
        className={d.picker}
        startName={names.start}
        endName={names.end}
        defaultValue={initial}
        granularity="day"
        shouldForceLeadingZeros
        validate={validate}
        ref={submitRef}
      >
        <PickerLabel label={label} limits={limits} />
        <Group className={d.group}>
          <Segments slot="start" />
          <span aria-hidden="true" className={d.dash}>
            –
          </span>
          <Segments slot="end" />
          <CalendarButton />
        </Group>
        <PickerError />
        <CalendarPopup>
          {/* The last day is the patient's today; the server refuses later ones alike. */}
          <RangeCalendar maxValue={calendarDateOf(today)}>
            <CalendarParts cellClass={d.cell} />
          </RangeCalendar>
        </CalendarPopup>
      </DateRangePicker>
    </PickerFrame>
  );
}

function DayPicker({ name, label, value, today, limits, problemOf }: DateFieldProps) {
  const { t } = useTranslation();
  const submitRef = useSubmitOnEnter();
  const validate = (date: DateValue | null) => {
    if (!date) return null;
    const key = problemOf(isoOfCalendarDate(date));
    return key ? t(key) : null;
  };
  return (
    <PickerFrame>
      <DatePicker
        className={d.picker}
        name={name}
        defaultValue={calendarDateOf(value)}
        granularity="day"
        shouldForceLeadingZeros
        validate={validate}
        ref={submitRef}
      >
        <PickerLabel label={label} limits={limits} />
        <Group className={d.group}>
          <Segments />
          <CalendarButton />
        </Group>
        <PickerError />
        <CalendarPopup>
          <Calendar maxValue={calendarDateOf(today)}>
            <CalendarParts cellClass={d.dayCell} />
          </Calendar>
        </CalendarPopup>
      </DatePicker>
    </PickerFrame>
  );
}
