// Types for Remix's single-fetch data (remix.config.js future.v3_singleFetch).
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
