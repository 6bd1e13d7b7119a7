import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { apiDocsPage, type DocCall, type DocField } from "~/api-docs/page";
import * as s from "~/styles/layout.css";
import * as p from "~/styles/pages.css";

/**
 * `/api-docs`: the `/api/` calls for the people who integrate with them, grouped by area: each
 * call's method and path, whether it is the public contract or our own addition, who may call
 * it, its parameters, its answer's fields and every code it may answer. Read from the same
 * OpenAPI document as `/api/openapi.json`; public, server-rendered, no script needed.
 */
export function loader() {
  return { areas: apiDocsPage() };
}

function FieldTable({
  caption,
  fields,
  withPlace,
}: {
  caption: string;
  fields: readonly DocField[];
  withPlace: boolean;
}) {
  const { t } = useTranslation("apidocs");
  return (
    <div className={p.tableRegion} role="region" aria-label={caption} tabIndex={0}>
      <table className={p.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("columns.name")}</th>
            {withPlace ? <th scope="col">{t("columns.in")}</th> : null}
            <th scope="col">{t("columns.type")}</th>
            <th scope="col">{t("columns.required")}</th>
            <th scope="col">{t("columns.description")}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={`${f.in ?? ""}${f.name}`}>
              <th scope="row">
                <code>{f.name}</code>
              </th>
              {withPlace ? <td>{t(`places.${f.in ?? "body"}`)}</td> : null}
              <td>
                <code>{f.type}</code>
              </td>
              <td>{f.required ? t("yes") : t("no")}</td>
              <td>{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Call({ call }: { call: DocCall }) {
  const { t } = useTranslation("apidocs");
  const title = `${call.method} ${call.path}`;
  return (
    <article id={call.id} aria-labelledby={`${call.id}-title`} data-testid="api-call">
      <h3 id={`${call.id}-title`}>
        <code>{title}</code>
      </h3>
      <p>
        <strong data-contract={call.contract}>{t(`contract.${call.contract}`)}</strong>
        {" · "}
        {t(`auth.${call.auth}`)}
      </p>
      <p lang="en">{call.summary}</p>
      {call.description ? <p lang="en">{call.description}</p> : null}
      {call.params.length ? (
        <FieldTable caption={t("parametersOf", { call: title })} fields={call.params} withPlace />
      ) : (
        <p>{t("noParameters")}</p>
      )}
      {call.file ? (
        <p>{t("fileAnswer", { type: call.file })}</p>
      ) : call.fields.length ? (
        <FieldTable
          caption={t("answerOf", { call: title, type: call.dataType })}
          fields={call.fields}
          withPlace={false}
        />
      ) : (
        <p>
          {t("answerData")} <code>{call.dataType}</code>
        </p>
      )}
      <div
        className={p.tableRegion}
        role="region"
        aria-label={t("codesOf", { call: title })}
        tabIndex={0}
      >
        <table className={p.table}>
          <caption>{t("codesOf", { call: title })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("columns.code")}</th>
              <th scope="col">{t("columns.http")}</th>
              <th scope="col">{t("columns.when")}</th>
            </tr>
          </thead>
          <tbody>
            {call.codes.map((c) => (
              <tr key={c.code}>
                <th scope="row">{c.code}</th>
                <td>{c.http}</td>
                <td lang="en">{c.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}

export default function ApiDocs() {
  const { t } = useTranslation("apidocs");
  const { areas } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.card} aria-labelledby="api-docs-title">
        <h1 id="api-docs-title">{t("title")}</h1>
        <p>{t("intro")}</p>
        <p>{t("envelope")}</p>
        <p>
          {t("document")} <a href="/api/openapi.json">/api/openapi.json</a>
        </p>
        <p>{t("legend", { spec: t("contract.spec"), own: t("contract.own") })}</p>
        <nav aria-label={t("areasNav")}>
          <ul className={p.linkList}>
            {areas.map((a) => (
              <li key={a.area}>
                <a href={`#${a.area}`}>{t(`areas.${a.area}`)}</a> ({a.calls.length})
              </li>
            ))}
          </ul>
        </nav>
      </section>
      {areas.map((a) => (
        <section key={a.area} id={a.area} className={s.card} aria-labelledby={`${a.area}-title`}>
          <h2 id={`${a.area}-title`}>{t(`areas.${a.area}`)}</h2>
          {a.calls.map((call) => (
            <Call key={call.id} call={call} />
          ))}
        </section>
      ))}
    </>
  );
}

export { ErrorBoundary } from "~/components/route-error-boundary";
