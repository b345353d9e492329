CREATE TABLE "grading_assignments" (
	"exercise_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "grading_assignments_exercise_id_user_id_pk" PRIMARY KEY("exercise_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "grading_pseudonyms" (
	"chapter_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"number" integer NOT NULL,
	CONSTRAINT "grading_pseudonyms_chapter_id_user_id_pk" PRIMARY KEY("chapter_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "gradings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"answer_id" uuid NOT NULL,
	"exercise_id" uuid NOT NULL,
	"grader_id" uuid,
	"grade" text,
	"grade_comment" text DEFAULT '' NOT NULL,
	"items" text[] DEFAULT '{}'::text[] NOT NULL,
	"arbitration" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "anonymous_grading" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "double_grading" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "grading_tolerance" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "max_points" double precision DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "exercises" ADD COLUMN "scheme_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "grade_audit" ADD COLUMN "kind" text DEFAULT 'grade' NOT NULL;--> statement-breakpoint
ALTER TABLE "grade_audit" ADD COLUMN "items" text[];--> statement-breakpoint
ALTER TABLE "grading_assignments" ADD CONSTRAINT "grading_assignments_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_assignments" ADD CONSTRAINT "grading_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_pseudonyms" ADD CONSTRAINT "grading_pseudonyms_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_pseudonyms" ADD CONSTRAINT "grading_pseudonyms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gradings" ADD CONSTRAINT "gradings_answer_id_answers_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."answers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gradings" ADD CONSTRAINT "gradings_exercise_id_exercises_id_fk" FOREIGN KEY ("exercise_id") REFERENCES "public"."exercises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gradings" ADD CONSTRAINT "gradings_grader_id_users_id_fk" FOREIGN KEY ("grader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grading_assignments_user_idx" ON "grading_assignments" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "grading_pseudonyms_number_uq" ON "grading_pseudonyms" USING btree ("chapter_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "gradings_answer_grader_uq" ON "gradings" USING btree ("answer_id","grader_id","arbitration");--> statement-breakpoint
CREATE INDEX "gradings_exercise_idx" ON "gradings" USING btree ("exercise_id","grader_id");--> statement-breakpoint
-- Backfill: every grade a person gave becomes that grader's grading row (its items unknown: none).
INSERT INTO "gradings" ("answer_id", "exercise_id", "grader_id", "grade", "grade_comment", "created_at", "updated_at")
SELECT a.id, a.exercise_id, a.grader_id, a.grade, coalesce(a.grade_comment, ''), coalesce(a.grade_timestamp, now()), coalesce(a.grade_timestamp, now())
FROM "answers" a WHERE a.grader_id IS NOT NULL AND a.grade IS NOT NULL;
