-- hand-written (decisions 159–162): a corrector's marks on a copy beside their grade, the comments of the bank
-- they applied, the exercise's comment bank, the chapter's « copies rendues » switch, and a regrade request's place.
ALTER TABLE "gradings" ADD COLUMN "annotations" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "gradings" ADD COLUMN "bank_comments" uuid[] DEFAULT '{}'::uuid[] NOT NULL;
--> statement-breakpoint
CREATE TABLE "comment_bank" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exercise_id" uuid NOT NULL REFERENCES "exercises"("id") ON DELETE cascade,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "comment_bank_exercise_idx" ON "comment_bank" USING btree ("exercise_id","position");
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "copies_returned" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "corrector_named" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD COLUMN "page" integer;
--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD COLUMN "region" jsonb;
--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD COLUMN "annotation_id" text;
