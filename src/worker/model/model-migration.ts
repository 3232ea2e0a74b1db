/*
 * The knowledge base first stored its four classes in a table each, with a table per relationship
 * array. A Durable Object keeps its database across deployments, so a model stored that way is moved
 * into the current layout the first time the store opens it; everything in it came through /resources.
 */

/** The first layout's tables, each before the tables its rows refer to. */
const classTables = [
  "provided_methods",
  "required_components",
  "internal_components",
  "vms",
  "methods",
  "cloud_providers",
  "resources",
];

function hasTable(sql: SqlStorage, name: string): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
}

/** Moves a model of the first layout into the current tables, then drops the old ones; else nothing. */
export function migrateClassTables(sql: SqlStorage): void {
  if (!hasTable(sql, "cloud_providers")) return;
  sql.exec(
    `INSERT INTO model_resources (id, clazz, type, number_of_cpus, uploaded)
       SELECT id, 'CloudProvider', type, NULL, 1 FROM cloud_providers
       UNION ALL SELECT id, 'Method', type, NULL, 1 FROM methods
       UNION ALL SELECT id, 'VM', type, number_of_cpus, 1 FROM vms
       UNION ALL SELECT id, 'InternalComponent', type, NULL, 1 FROM internal_components`,
  );
  sql.exec(
    `INSERT INTO model_references (resource_id, field, position, target_id)
       SELECT id, 'cloudProvider', 0, cloud_provider FROM vms
       UNION ALL SELECT component_id, 'providedMethods', position, method_id FROM provided_methods
       UNION ALL SELECT component_id, 'requiredComponents', position, vm_id FROM required_components`,
  );
  for (const table of classTables) sql.exec(`DROP TABLE ${table}`);
}
