// `npm run db:migrate`: apply pending migrations to $DATABASE_URL.
import { migrateDeploy } from "../server/migrate";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set");
  process.exit(2);
}
await migrateDeploy(url);
console.log("Migrations applied.");
