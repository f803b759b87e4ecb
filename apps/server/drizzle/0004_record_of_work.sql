CREATE TYPE "public"."activity_type" AS ENUM('created', 'edited', 'status_changed', 'comment', 'attachment');--> statement-breakpoint
CREATE TABLE "attachment_data" (
	"attachment_id" integer PRIMARY KEY NOT NULL,
	"image" "bytea" NOT NULL,
	"thumbnail" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subtask_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"subtask_id" integer NOT NULL,
	"actor_id" integer,
	"type" "activity_type" NOT NULL,
	"from_status" "subtask_status",
	"to_status" "subtask_status",
	"text" text,
	"changes" jsonb,
	"attachment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subtask_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"subtask_id" integer NOT NULL,
	"uploaded_by_id" integer,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "attachment_data" ADD CONSTRAINT "attachment_data_attachment_id_subtask_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."subtask_attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_activity" ADD CONSTRAINT "subtask_activity_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_activity" ADD CONSTRAINT "subtask_activity_subtask_id_subtasks_id_fk" FOREIGN KEY ("subtask_id") REFERENCES "public"."subtasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_activity" ADD CONSTRAINT "subtask_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_activity" ADD CONSTRAINT "subtask_activity_attachment_id_subtask_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."subtask_attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_attachments" ADD CONSTRAINT "subtask_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_attachments" ADD CONSTRAINT "subtask_attachments_subtask_id_subtasks_id_fk" FOREIGN KEY ("subtask_id") REFERENCES "public"."subtasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subtask_attachments" ADD CONSTRAINT "subtask_attachments_uploaded_by_id_users_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subtask_activity_subtask_idx" ON "subtask_activity" USING btree ("subtask_id","id");--> statement-breakpoint
CREATE INDEX "subtask_attachments_subtask_idx" ON "subtask_attachments" USING btree ("subtask_id");--> statement-breakpoint
-- Photos are already compressed: PostgreSQL keeps them out of line without trying again.
ALTER TABLE "attachment_data" ALTER COLUMN "image" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "attachment_data" ALTER COLUMN "thumbnail" SET STORAGE EXTERNAL;--> statement-breakpoint
-- Every subtask made before its history was kept starts its timeline with its creation.
INSERT INTO "subtask_activity" ("company_id", "subtask_id", "actor_id", "type", "created_at")
SELECT "company_id", "id", "assigned_by_id", 'created', "created_at" FROM "subtasks";
