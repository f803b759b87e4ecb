DROP INDEX "subtasks_company_major_task_idx";--> statement-breakpoint
CREATE INDEX "subtasks_company_major_task_status_idx" ON "subtasks" USING btree ("company_id","major_task_id","status");