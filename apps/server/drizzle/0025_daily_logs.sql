-- The daily site log (issue 45, decision record 080): one log per project and local day, the
-- crew's own entries, its photos (bytes in a table of their own that no list reads) and the
-- amendments of a signed log.
CREATE TABLE "daily_log_amendments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"daily_log_id" integer NOT NULL,
	"author_id" integer,
	"reason" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_log_attachment_data" (
	"attachment_id" integer PRIMARY KEY NOT NULL,
	"image" "bytea" NOT NULL,
	"thumbnail" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_log_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"daily_log_id" integer NOT NULL,
	"uploaded_by_id" integer,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_log_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"daily_log_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"hours" numeric(4, 2),
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"log_date" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"weather" jsonb,
	"crew" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"equipment" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deliveries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"incidents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"visitors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"work_notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"signed_work" jsonb,
	"created_by_id" integer,
	"signed_by_id" integer,
	"signed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_logs_status_check" CHECK ("daily_logs"."status" in ('draft', 'signed')),
	CONSTRAINT "daily_logs_signed_check" CHECK (("daily_logs"."status" = 'signed') = ("daily_logs"."signed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "daily_log_amendments" ADD CONSTRAINT "daily_log_amendments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_amendments" ADD CONSTRAINT "daily_log_amendments_daily_log_id_daily_logs_id_fk" FOREIGN KEY ("daily_log_id") REFERENCES "public"."daily_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_amendments" ADD CONSTRAINT "daily_log_amendments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_attachment_data" ADD CONSTRAINT "daily_log_attachment_data_attachment_id_daily_log_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."daily_log_attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_attachments" ADD CONSTRAINT "daily_log_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_attachments" ADD CONSTRAINT "daily_log_attachments_daily_log_id_daily_logs_id_fk" FOREIGN KEY ("daily_log_id") REFERENCES "public"."daily_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_attachments" ADD CONSTRAINT "daily_log_attachments_uploaded_by_id_users_id_fk" FOREIGN KEY ("uploaded_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_entries" ADD CONSTRAINT "daily_log_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_entries" ADD CONSTRAINT "daily_log_entries_daily_log_id_daily_logs_id_fk" FOREIGN KEY ("daily_log_id") REFERENCES "public"."daily_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_log_entries" ADD CONSTRAINT "daily_log_entries_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_logs" ADD CONSTRAINT "daily_logs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_logs" ADD CONSTRAINT "daily_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_logs" ADD CONSTRAINT "daily_logs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_logs" ADD CONSTRAINT "daily_logs_signed_by_id_users_id_fk" FOREIGN KEY ("signed_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "daily_log_amendments_log_idx" ON "daily_log_amendments" USING btree ("daily_log_id","id");--> statement-breakpoint
CREATE INDEX "daily_log_attachments_log_idx" ON "daily_log_attachments" USING btree ("daily_log_id","id");--> statement-breakpoint
CREATE INDEX "daily_log_entries_log_idx" ON "daily_log_entries" USING btree ("daily_log_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "daily_logs_company_project_date_key" ON "daily_logs" USING btree ("company_id","project_id","log_date");--> statement-breakpoint
CREATE INDEX "daily_logs_project_idx" ON "daily_logs" USING btree ("project_id");