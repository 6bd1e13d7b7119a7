/** Any URL no other route matches: the translated 404 page with status 404. */
export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function Unknown() {
  return null;
}

export { ErrorBoundary } from "~/components/route-error-boundary";
