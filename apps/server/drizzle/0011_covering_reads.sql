-- Reads that run on every dashboard, answered from their index (`git show f907f16:bench/results/2026-11-24-http-srv.md`):
-- a person's subtasks as the team workload and the appraisal counts read them, index-only; and
-- a person's notifications newest first with the id as the tie-break, read in order and stopped at
-- the page instead of read whole and sorted (a batch of notifications shares its created_at).
DROP INDEX "subtasks_company_assignee_status_idx";--> statement-breakpoint
CREATE INDEX "subtasks_company_assignee_status_covering_idx" ON "subtasks" USING btree ("company_id","assigned_to_id","status","due_date","id","major_task_id","completed_at","name");--> statement-breakpoint
DROP INDEX "notification_recipients_user_created_idx";--> statement-breakpoint
CREATE INDEX "notification_recipients_user_created_id_idx" ON "notification_recipients" USING btree ("user_id","created_at","id");
