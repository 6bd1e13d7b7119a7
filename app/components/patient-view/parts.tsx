import type { ReactNode } from "react";
import type { ViewCharts } from "~/services/view-charts.server";
import * as s from "~/styles/patient-view.css";

/**
 * A server-rendered SVG chart (app/report/charts.server.ts): works without JavaScript and prints
 * crisply. Both drawings are in the page; the section's width picks one (CSS), paper the wide one.
 * `caption` is its text alternative: the key figures it draws, and where the rest is listed.
 */
export function Chart({ chart, caption }: { chart: ViewCharts; caption: string }) {
  return (
    <figure className={s.chart}>
      <div
        className={s.chartWide}
        data-testid="chart"
        dangerouslySetInnerHTML={{ __html: chart.wide }}
      />
      <div
        className={s.chartNarrow}
        data-testid="chart-narrow"
        dangerouslySetInnerHTML={{ __html: chart.narrow }}
      />
      <figcaption className={s.note} data-testid="chart-caption">
        {caption}
      </figcaption>
    </figure>
  );
}

/** One labelled figure of a summary. */
export function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={s.stat}>
      <dt className={s.statLabel}>{label}</dt>
      <dd className={s.statValue}>{children}</dd>
    </div>
  );
}

/** A note in the empty state or a refused input. */
export function Notice({ kind, children }: { kind: "problem" | "empty"; children: ReactNode }) {
  return (
    <div
      className={kind === "problem" ? s.problem : s.empty}
      role={kind === "problem" ? "alert" : "status"}
    >
      {children}
    </div>
  );
}
