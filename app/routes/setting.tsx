import { redirect } from "@remix-run/node";

/** `/setting`: the settings page's other address. */
export function loader() {
  return redirect("/newsetting", 301);
}
