-- Issue 42: completing a project approves nothing; its unfinished work is closed as unfinished
-- (decision record 061), with a line of history of its own.
ALTER TYPE "public"."activity_type" ADD VALUE 'closed_unfinished';--> statement-breakpoint
ALTER TYPE "public"."activity_type" ADD VALUE 'reopened';--> statement-breakpoint
ALTER TABLE "subtasks" ADD COLUMN "closed_unfinished_at" timestamp with time zone;--> statement-breakpoint
-- Work left open in projects completed before this rule is closed unfinished now. No line of
-- history: a new enum value cannot be used in the transaction that adds it.
UPDATE "subtasks" SET "closed_unfinished_at" = now()
	FROM "major_tasks", "projects"
	WHERE "major_tasks"."id" = "subtasks"."major_task_id" AND "projects"."id" = "major_tasks"."project_id"
		AND "projects"."status" = 'completed' AND "subtasks"."status" <> 'completed';
