/** The names of the columns of `table`. */
export function columnNames(sql: SqlStorage, table: string): Set<string> {
  return new Set(
    sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info(?)", table)
      .toArray()
      .map((column) => column.name),
  );
}

/**
 * Adds the columns `table` lacks, each with its definition (type and default), and returns the
 * names added: a table created by an earlier release gains the columns of this one in place.
 */
export function addMissingColumns(sql: SqlStorage, table: string, columns: Record<string, string>): string[] {
  const existing = columnNames(sql, table);
  const missing = Object.keys(columns).filter((name) => !existing.has(name));
  for (const name of missing) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${columns[name]}`);
  return missing;
}
