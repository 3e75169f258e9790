-- A satisfied trigger's monitor log names the task it submitted (<references><taskRequest>, the
-- task's request id: for a transfer, its transfer id), one log per task as IBM publishes them. Kept
-- in MONITOR_ACTION.TASK_REQUEST_ID, so that a monitor action can be joined to its TRANSFER row;
-- null for the other actions and for logs without it. The column is OpenMFT's: IBM's column list
-- for MONITOR_ACTION and IBM's DDL (ftelog_tables_db2.sql, ftelog_tables_oracle.sql) were not found
-- (docs/architecture.md, "Logger"). Portable between H2 2.x and PostgreSQL, as V1 to V5.
ALTER TABLE monitor_action ADD COLUMN task_request_id VARCHAR(48);

CREATE INDEX monitor_action_task_request_id ON monitor_action (task_request_id);
