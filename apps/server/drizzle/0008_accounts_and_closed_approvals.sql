-- Issue 25: a person's name beside their e-mail, and a password an admin set that its user must change.
ALTER TABLE "users" ADD COLUMN "full_name" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- A completed project closes its approvals (decision record 030): subtasks left pending in
-- projects completed before this rule are closed as completed, each with a line of history.
WITH "closed" AS (
	UPDATE "subtasks" SET "status" = 'completed', "completed_at" = now()
	FROM "major_tasks", "projects"
	WHERE "major_tasks"."id" = "subtasks"."major_task_id" AND "projects"."id" = "major_tasks"."project_id"
		AND "projects"."status" = 'completed' AND "subtasks"."status" = 'pending_approval'
	RETURNING "subtasks"."id", "subtasks"."company_id"
)
INSERT INTO "subtask_activity" ("company_id", "subtask_id", "actor_id", "type", "from_status", "to_status")
	SELECT "company_id", "id", NULL, 'status_changed', 'pending_approval', 'completed' FROM "closed";
