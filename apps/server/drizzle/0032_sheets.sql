CREATE TYPE "public"."sheet_source" AS ENUM('pdf', 'image');--> statement-breakpoint
CREATE TYPE "public"."sheet_status" AS ENUM('processing', 'ready', 'failed');--> statement-breakpoint
CREATE TABLE "sheets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"version_group_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"page_number" integer DEFAULT 1 NOT NULL,
	"status" "sheet_status" DEFAULT 'processing' NOT NULL,
	"failure" text,
	"source" "sheet_source" NOT NULL,
	"source_path" text,
	"width" integer,
	"height" integer,
	"max_level" integer,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subtasks" ADD COLUMN "pin_sheet_id" integer;--> statement-breakpoint
ALTER TABLE "subtasks" ADD COLUMN "pin_x" real;--> statement-breakpoint
ALTER TABLE "subtasks" ADD COLUMN "pin_y" real;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_version_group_id_sheets_id_fk" FOREIGN KEY ("version_group_id") REFERENCES "public"."sheets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sheets_company_project_idx" ON "sheets" USING btree ("company_id","project_id","id");--> statement-breakpoint
CREATE INDEX "sheets_version_group_idx" ON "sheets" USING btree ("version_group_id");--> statement-breakpoint
ALTER TABLE "subtasks" ADD CONSTRAINT "subtasks_pin_sheet_id_sheets_id_fk" FOREIGN KEY ("pin_sheet_id") REFERENCES "public"."sheets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subtasks_pin_sheet_idx" ON "subtasks" USING btree ("pin_sheet_id") WHERE "subtasks"."pin_sheet_id" is not null;