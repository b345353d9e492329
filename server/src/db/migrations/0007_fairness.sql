CREATE TABLE "center_refusals" (
	"chapter_id" uuid NOT NULL,
	"institution_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"refused_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "center_refusals_chapter_id_institution_id_user_id_pk" PRIMARY KEY("chapter_id","institution_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "chapter_sessions" ADD COLUMN "access_gender" text;--> statement-breakpoint
ALTER TABLE "chapter_sessions" ADD COLUMN "access_grade" text;--> statement-breakpoint
ALTER TABLE "chapter_sessions" ADD COLUMN "access_birth_date" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "institution_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "previous_institution_id" uuid;--> statement-breakpoint
ALTER TABLE "center_refusals" ADD CONSTRAINT "center_refusals_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "center_refusals" ADD CONSTRAINT "center_refusals_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "center_refusals" ADD CONSTRAINT "center_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "center_refusals" ADD CONSTRAINT "center_refusals_refused_by_users_id_fk" FOREIGN KEY ("refused_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "center_refusals_user_idx" ON "center_refusals" USING btree ("user_id","chapter_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_previous_institution_id_institutions_id_fk" FOREIGN KEY ("previous_institution_id") REFERENCES "public"."institutions"("id") ON DELETE set null ON UPDATE no action;