import { Link } from "@remix-run/react";
import * as s from "~/styles/pager.css";

/**
 * The links between the pages of a list: back, "page N of M", forward. Plain links, so paging
 * works without JavaScript; nothing shows when there is one page.
 */
export function Pager({
  page,
  pages,
  href,
  labels,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  labels: { nav: string; back: string; forward: string; pageOf: string };
}) {
  if (pages <= 1) return null;
  return (
    <nav className={s.pager} aria-label={labels.nav}>
      {page > 1 ? <Link to={href(page - 1)}>{labels.back}</Link> : <span />}
      <span>{labels.pageOf}</span>
      {page < pages ? <Link to={href(page + 1)}>{labels.forward}</Link> : <span />}
    </nav>
  );
}
