import { ErrorPage } from "~/components/error-page";

export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} />;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
