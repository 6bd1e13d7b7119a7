import { openApiDocument } from "~/api-docs/openapi";

/** GET /api/openapi.json: the OpenAPI 3.1 document of every `/api/` call; no sign-in needed. */
export function loader() {
  return Response.json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
