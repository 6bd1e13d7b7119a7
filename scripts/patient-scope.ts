/**
 * Whether an SQL statement sent to a record table names the patient: the check behind
 * docs/decisions/026-citus-ready-schema.md. On a database distributed by patient, a statement
 * that names the patient in its WHERE, JOIN or key runs on the patient's shard; one that does not
 * runs on every shard. The statements come from pg_stat_statements (constants already replaced by
 * $n), so this reads SQL text, not a parse tree: comments and string literals are dropped first.
 */

/** The record tables and the column that holds their patient (the distribution column). */
export const RECORD_TABLES: Readonly<Record<string, string>> = {
  PumpRecord: "patientId",
  CgmRecord: "patientId",
  CgmDay: "patientId",
  BgRecord: "patientId",
  CarbEntry: "patientId",
  InsulinEntry: "patientId",
  AlarmEvent: "patientId",
  BasalSetting: "patientId",
  PumpSetting: "patientId",
  Device: "patientId",
  NightscoutDeviceStatus: "patientId",
};

/** A statement the app rightly runs across patients, and why (each one is named in ADR 026). */
export type AllowedStatement = {
  readonly name: string;
  readonly reason: string;
  readonly pattern: RegExp;
};

export const ALLOWED_ACROSS_PATIENTS: readonly AllowedStatement[] = [
  {
    name: "device of another patient",
    reason:
      "an upload asks whether its device serial was already uploaded for any other patient, to warn the operator (UploadTask.otherPatientDevice)",
    pattern:
      /^SELECT EXISTS \(SELECT \$?\d+ FROM "Device" WHERE kind = \$\d+::"DeviceKind" AND serial = \$\d+ AND "patientId" <> \$\d+\) AS other$/,
  },
  {
    name: "deleted account's devices",
    reason:
      "deleting an account clears it as the first uploader of the devices it uploaded for other patients (app/models/account-deletion.server.ts), in the deletion's one transaction",
    pattern:
      /^UPDATE "public"\."Device" SET "firstUploaderId" = \$\d+ WHERE "public"\."Device"\."firstUploaderId" = \$\d+$/,
  },
];

/** The statement without comments and with every string literal emptied, on one line. */
export function stripSql(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? sql.length : end + 2;
      out += " ";
    } else if (c === "'") {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === "'" ? 2 : 1;
      out += "''";
      i = j + 1;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

/** Words that may follow a table name and are not its alias. */
const NOT_ALIAS = new Set(
  "WHERE JOIN INNER LEFT RIGHT FULL CROSS NATURAL ON SET ORDER GROUP LIMIT OFFSET USING VALUES RETURNING UNION EXCEPT INTERSECT WINDOW HAVING FOR DEFAULT SELECT AS".split(
    " ",
  ),
);

/** One mention of a record table in FROM, JOIN, INTO or UPDATE, with the names that qualify its columns. */
type TableUse = { table: string; names: string[]; insertColumns: string[] | null };

const IDENT = String.raw`(?:"[^"]+"|[A-Za-z_][A-Za-z0-9_]*)`;

function unquote(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1) : name.toLowerCase();
}

function tableUses(sql: string): TableUse[] {
  const uses: TableUse[] = [];
  const names = Object.keys(RECORD_TABLES).join("|");
  const use = new RegExp(
    String.raw`\b(FROM|JOIN|INTO|UPDATE|USING)\s+(?:"public"\.)?"(${names})"(?:\s+(?:AS\s+)?(${IDENT}))?(\s*\(([^)]*)\))?`,
    "gi",
  );
  for (const m of sql.matchAll(use)) {
    const keyword = m[1]!.toUpperCase();
    const table = m[2]!;
    const aliasWord = m[3];
    const alias = aliasWord && !NOT_ALIAS.has(aliasWord.toUpperCase()) ? unquote(aliasWord) : null;
    const insertColumns =
      keyword === "INTO" && m[4] && !alias ? m[5]!.split(",").map((c) => unquote(c.trim())) : null;
    uses.push({ table, names: alias ? [alias] : [table], insertColumns });
  }
  return uses;
}

/**
 * The qualifiers (table or alias, unquoted; "" for none) of the patient column where the
 * statement compares it for equality or membership: `q."patientId" = ...`, `... = q."patientId"`,
 * `q."patientId" IN (...)`, `q."patientId" = ANY (...)`. Not `<>`, `<`, `>` or `IS`.
 */
function patientKeyQualifiers(sql: string, column: string): Set<string> {
  const found = new Set<string>();
  const qualified = String.raw`((?:${IDENT}\.)*)"${column}"`;
  const lastQualifier = (chain: string) => {
    const parts = chain.split(".").filter(Boolean);
    return parts.length ? unquote(parts[parts.length - 1]!) : "";
  };
  for (const m of sql.matchAll(new RegExp(String.raw`${qualified}\s*(=(?!>)|IN\s*\()`, "gi")))
    found.add(lastQualifier(m[1]!));
  for (const m of sql.matchAll(new RegExp(String.raw`(?<![<>!])=\s*${qualified}`, "gi")))
    found.add(lastQualifier(m[1]!));
  return found;
}

export type Verdict =
  | { readonly touches: false }
  | { readonly touches: true; readonly tables: readonly string[]; readonly scoped: true }
  | {
      readonly touches: true;
      readonly tables: readonly string[];
      readonly scoped: false;
      /** The record tables mentioned without their patient. */
      readonly unscoped: readonly string[];
      readonly allowed: AllowedStatement | null;
    };

/**
 * Reads one statement: which record tables it touches, and whether every mention of one names
 * the patient (an INSERT's column list holds the patient column; any other mention has its
 * patient column, through its alias or unqualified, compared for equality or membership in the
 * WHERE or a JOIN's ON). A statement that does not is looked up in the allow-list.
 */
export function classify(sql: string): Verdict {
  const text = stripSql(sql);
  const uses = tableUses(text);
  if (uses.length === 0) return { touches: false };
  const tables = [...new Set(uses.map((u) => u.table))];
  const unscoped = uses
    .filter((u) => {
      const column = RECORD_TABLES[u.table]!;
      if (u.insertColumns) return !u.insertColumns.includes(column);
      const keys = patientKeyQualifiers(text, column);
      return !keys.has("") && !u.names.some((n) => keys.has(n));
    })
    .map((u) => u.table);
  if (unscoped.length === 0) return { touches: true, tables, scoped: true };
  return {
    touches: true,
    tables,
    scoped: false,
    unscoped: [...new Set(unscoped)],
    allowed: ALLOWED_ACROSS_PATIENTS.find((a) => a.pattern.test(text)) ?? null,
  };
}

/** A recorded statement and how often it ran. */
export type Recorded = { readonly query: string; readonly calls: number };

/** The statements that touch a record table without its patient and are not allowed. */
export function violations(
  statements: readonly Recorded[],
): (Recorded & { tables: readonly string[] })[] {
  return statements.flatMap((s) => {
    const verdict = classify(s.query);
    return verdict.touches && !verdict.scoped && !verdict.allowed
      ? [{ ...s, tables: verdict.unscoped }]
      : [];
  });
}
