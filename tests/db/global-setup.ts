import type { TestProject } from "vitest/node";
import { migrateDeploy } from "../../server/migrate";
import { adminDatabaseUrl, databaseUrl, dropDatabase, withAdmin } from "./database";

declare module "vitest" {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

/** Migrates one template database per run; every test file copies it (tests/db/file-setup.ts). */
export default async function setup(project: TestProject) {
  const admin = adminDatabaseUrl();
  const template = `diacare_template_${process.pid}`;
  await dropDatabase(admin, template);
  await withAdmin(admin, (c) => c.query(`CREATE DATABASE "${template}"`));
  await migrateDeploy(databaseUrl(admin, template));
  project.provide("adminDatabaseUrl", admin);
  project.provide("templateDatabase", template);
  return async () => {
    await dropDatabase(admin, template);
  };
}
