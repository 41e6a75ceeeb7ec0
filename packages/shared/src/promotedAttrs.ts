/**
 * Attributes with their own columns in `spans_index` (reference ingest §2.12), as
 * [attribute, column]. Ingest writes them there instead of the attribute arrays, the span query
 * compiler and the span-metric views read them from there, and the error monitors read them back
 * into a span's attributes. One list, so a new promoted attribute reaches every reader.
 */
export const PROMOTED_ATTRS = [
  ['deployment.environment', 'deployment_environment'],
  ['service.name', 'service_name'],
  ['host.name', 'host_name'],
  ['db.system', 'db_system'],
  ['db.statement', 'db_statement'],
  ['db.operation', 'db_operation'],
  ['db.sql.table', 'db_sql_table'],
  ['log.severity', 'log_severity'],
  ['log.message', 'log_message'],
  ['exception.type', 'exception_type'],
  ['exception.message', 'exception_message'],
] as const;

export type PromotedAttr = (typeof PROMOTED_ATTRS)[number][0];
export type PromotedColumn = (typeof PROMOTED_ATTRS)[number][1];
