import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AlarmText, CaringMenu, CaringMissing, GlucoseValue, TrendText } from "~/components/caring";
import { patientLinks } from "~/components/patient-view/links";
import { toGlucoseUnit } from "~/domain/glucose-unit";
import { formatDate } from "~/report/locale-format";
import { REPORT_KINDS, type ReportKind } from "~/report/report-kinds";
import { formatNumber } from "~/report/units";
import { caringDetailParams } from "~/schemas/caring";
import { requireCaring } from "~/services/caring-account.server";
import { caringDetail, type CaringDetail } from "~/services/caring.server";
import { tabsFor } from "~/services/patient-view.server";
import * as c from "~/styles/caring.css";
import * as s from "~/styles/layout.css";

const REPORTS = Object.keys(REPORT_KINDS) as ReportKind[];

/**
 * `/{userId}/caringdetail`: one cared-for person's latest values (current CGM glucose with trend,
 * age and alarm; the newest blood-glucose value; the newest pump record; today's time in range)
 * and links to their data views and reports. Read through the access gateway (one entry in the
 * person's access log); a person the viewer may not read, or an account without a health
 * record, is a 404 with nothing logged.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, locale, missing } = await requireCaring(request);
  const parsed = caringDetailParams.safeParse(params);
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  const unit = toGlucoseUnit(user.setting?.unit);
  if (missing.length) return { missing, unit, detail: null, tabs: [] };
  const detail = await caringDetail(user, { userId: parsed.data.userId, locale });
  if (!detail) throw new Response("Not Found", { status: 404 });
  return { missing, unit, detail, tabs: tabsFor(locale) };
}

export default function CaringDetailPage() {
  const { t } = useTranslation("caring");
  const { missing, unit, detail, tabs } = useLoaderData<typeof loader>();
  return (
    <section className={s.card} aria-labelledby="detail-title">
      <h1 id="detail-title">{detail ? detail.name : t("detail.title")}</h1>
      <CaringMenu />
      {missing.length || !detail ? (
        <CaringMissing missing={missing} />
      ) : (
        <Detail detail={detail} unit={unit} tabs={tabs} />
      )}
    </section>
  );
}

function Detail({
  detail,
  unit,
  tabs,
}: {
  detail: CaringDetail;
  unit: ReturnType<typeof toGlucoseUnit>;
  tabs: string[];
}) {
  const { t, i18n } = useTranslation("caring");
  const links = patientLinks({ id: detail.pid, userId: detail.userId });
  const none = t("detail.none");
  return (
    <>
      <p>
        {detail.email}
        {detail.birthDate
          ? ` · ${t("detail.born", { date: formatDate(detail.birthDate, i18n.language) })}`
          : ""}
      </p>
      <h2>{t("detail.latest")}</h2>
      <p className={c.small}>{t("detail.zoneNote", { zone: detail.timeZone })}</p>
      <dl className={c.values} data-testid="caring-latest">
        <dt className={c.term}>{t("detail.cgm")}</dt>
        <dd className={c.definition}>
          {detail.glucose ? (
            <>
              <GlucoseValue mgdl={detail.glucose.mgdl} unit={unit} />,{" "}
              {t("detail.when", { age: detail.glucose.age, at: detail.glucose.at })}
            </>
          ) : (
            none
          )}
        </dd>
        <dt className={c.term}>{t("views:cgms.trend")}</dt>
        <dd className={c.definition}>
          {detail.glucose ? <TrendText trend={detail.glucose.trend} /> : none}
        </dd>
        <dt className={c.term}>{t("views:cgms.alarm")}</dt>
        <dd className={c.definition}>
          {detail.glucose ? <AlarmText alarm={detail.glucose.alarm} /> : none}
        </dd>
        <dt className={c.term}>{t("detail.range")}</dt>
        <dd className={c.definition}>
          <GlucoseValue mgdl={detail.limits.low} unit={unit} /> –{" "}
          <GlucoseValue mgdl={detail.limits.high} unit={unit} />
        </dd>
        <dt className={c.term}>{t("detail.bg")}</dt>
        <dd className={c.definition}>
          {detail.bg ? (
            <>
              <GlucoseValue mgdl={detail.bg.mgdl} unit={unit} />,{" "}
              {t("detail.when", { age: detail.bg.age, at: detail.bg.at })}
            </>
          ) : (
            none
          )}
        </dd>
        <dt className={c.term}>{t("detail.pump")}</dt>
        <dd className={c.definition}>
          {detail.pump ? t("detail.when", { age: detail.pump.age, at: detail.pump.at }) : none}
        </dd>
        <dt className={c.term}>{t("detail.tir")}</dt>
        <dd className={c.definition}>
          {detail.today.timeInRange === null
            ? t("detail.noReadingsToday")
            : t("detail.tirValue", {
                percent: formatNumber(detail.today.timeInRange, 0, i18n.language),
                count: detail.today.readings,
              })}
        </dd>
      </dl>
      <h2>{t("detail.views")}</h2>
      <ul>
        {tabs.map((tab) => (
          <li key={tab}>
            <Link to={`${links.home}?tab=${tab}`}>{t(`views:tabs.${tab}`)}</Link>
          </li>
        ))}
        <li>
          <Link to={links.uploads}>{t("views:tabs.uploads")}</Link>
        </li>
      </ul>
      <h2>{t("detail.reports")}</h2>
      <ul>
        {REPORTS.map((kind) => (
          <li key={kind}>
            <Link to={`/${detail.pid}/${REPORT_KINDS[kind].page}`}>
              {t(`views:reports.${kind}`)}
            </Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/caringpatients">{t("detail.back")}</Link>
      </p>
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
