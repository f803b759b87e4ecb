DROP INDEX "major_tasks_company_project_idx";--> statement-breakpoint
DROP INDEX "subtasks_major_task_idx";--> statement-breakpoint
CREATE INDEX "major_tasks_company_project_id_idx" ON "major_tasks" USING btree ("company_id","project_id","id");--> statement-breakpoint
CREATE INDEX "subtasks_major_task_due_idx" ON "subtasks" USING btree ("major_task_id","due_date");