CREATE INDEX "major_tasks_project_idx" ON "major_tasks" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "subtasks_company_assigner_status_idx" ON "subtasks" USING btree ("company_id","assigned_by_id","status");--> statement-breakpoint
CREATE INDEX "subtasks_major_task_idx" ON "subtasks" USING btree ("major_task_id");