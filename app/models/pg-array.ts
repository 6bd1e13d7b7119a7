/**
 * PostgreSQL array literals for bulk statements: a batch's column goes to the database as one text
 * parameter, cast there (`${numberArray(xs)}::int[]`). Prisma 6's client serialises every bound
 * value through its query compiler; an array of a thousand numbers costs it milliseconds, the same
 * values as one string a fraction of that, and a bulk insert binds a dozen such columns.
 *
 * Syntax: PostgreSQL 15 manual, section 8.15.6 "Array Input and Output Syntax": elements are
 * separated by commas; an unquoted NULL is a null element; inside double quotes any character
 * stands for itself except the double quote and the backslash, which are escaped by a backslash.
 */

/** `{1,2.5,NULL}`; every number must be finite. */
export function numberArray(values: readonly (number | null | undefined)[]): string {
  return `{${values.map(numberElement).join(",")}}`;
}

/** `{"a b","say \"hi\"",NULL}`: every element quoted, so commas, braces and spaces stay text. */
export function textArray(values: readonly (string | null | undefined)[]): string {
  return `{${values.map(textElement).join(",")}}`;
}

function numberElement(value: number | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return String(value);
}

function textElement(value: string | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}
