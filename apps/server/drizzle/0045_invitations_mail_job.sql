-- The job of an invitation's latest mail: the admin's pending list says, from the same row, when
-- that mail was given up (refused for good, or every retry failed). Nullable without a default and
-- without a foreign key (finished jobs are swept), so PostgreSQL adds it without rewriting the table.
ALTER TABLE "invitations" ADD COLUMN "mail_job_id" bigint;
