import pg from "pg";

/** A statement as a node-postgres client sent it: its text and bound values. */
export type Statement = { text: string; values: unknown[] };

/** One node of an EXPLAIN (FORMAT JSON) plan, with the fields the plan tests read. */
export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

export function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/** node-postgres's query(config | text, values?, callback?): the text and values are what is planned. */
function statementOf(args: unknown[]): Statement | null {
  const [first, second] = args;
  if (typeof first === "string")
    return { text: first, values: Array.isArray(second) ? second : [] };
  if (first && typeof first === "object" && "text" in first) {
    const config = first as { text: string; values?: unknown[] };
    return { text: config.text, values: config.values ?? [] };
  }
  return null;
}

const originalQuery = pg.Client.prototype.query;

/**
 * Keeps every statement that any node-postgres client of this process (Prisma's adapter, the
 * upload path's pool, a test's own client) sends between `start()` and `stop()`.
 */
export function statementRecorder() {
  const statements: Statement[] = [];
  return {
    statements,
    start() {
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const statement = statementOf(args);
        if (statement) statements.push(statement);
        return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof pg.Client.prototype.query;
    },
    stop() {
      pg.Client.prototype.query = originalQuery;
    },
  };
}
