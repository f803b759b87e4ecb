-- When an offline write's work was done, as the device said (decision record 109); null when it
-- arrived as it was done. Nullable without a default, so PostgreSQL adds it without rewriting the
-- table: the history's rows stay as they are, read as done when they arrived.
ALTER TABLE "subtask_activity" ADD COLUMN "done_at" timestamp with time zone;
