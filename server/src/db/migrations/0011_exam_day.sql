CREATE TABLE "mail_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"to" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "center_registrations" ADD COLUMN "present" boolean;--> statement-breakpoint
ALTER TABLE "center_registrations" ADD COLUMN "attendance_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "center_registrations" ADD COLUMN "attendance_by" uuid;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "sitting_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "room" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "bring" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "details_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_deliveries" ADD CONSTRAINT "mail_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_deliveries_key_idx" ON "mail_deliveries" USING btree ("key");--> statement-breakpoint
CREATE INDEX "mail_deliveries_status_idx" ON "mail_deliveries" USING btree ("kind","status");--> statement-breakpoint
ALTER TABLE "center_registrations" ADD CONSTRAINT "center_registrations_attendance_by_users_id_fk" FOREIGN KEY ("attendance_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_queue_order_idx" ON "jobs" USING btree ("created_at","id") WHERE status IN ('pending', 'running');