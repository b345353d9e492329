-- hand-written (decision 155): selections, their categories, the jury's decisions, frozen versions and outcomes;
-- an access group may require a qualification; schools carry their sector and académie for the jury's figures.
CREATE TABLE "selections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"chapters" jsonb NOT NULL,
	"next_round_title" text NOT NULL,
	"next_round_date" date,
	"next_round_place" text DEFAULT '' NOT NULL,
	"jury_group_id" uuid REFERENCES "groups"("id") ON DELETE set null,
	"jury_right" text DEFAULT 'read' NOT NULL,
	"publish_at" timestamp with time zone,
	"names_revealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "selection_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"selection_id" uuid NOT NULL REFERENCES "selections"("id") ON DELETE cascade,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"genders" text[] DEFAULT '{}'::text[] NOT NULL,
	"grades" text[] DEFAULT '{}'::text[] NOT NULL,
	"birth_date_min" date,
	"birth_date_max" date,
	"cutoff" double precision,
	"at_cutoff" text,
	"min_girls" integer,
	"max_per_school" integer
);
--> statement-breakpoint
CREATE INDEX "selection_categories_selection_idx" ON "selection_categories" USING btree ("selection_id","position");
--> statement-breakpoint
CREATE TABLE "selection_decisions" (
	"category_id" uuid NOT NULL REFERENCES "selection_categories"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"decision" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"decided_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "selection_decisions_category_id_user_id_pk" PRIMARY KEY("category_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "selection_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"selection_id" uuid NOT NULL REFERENCES "selections"("id") ON DELETE cascade,
	"number" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"frozen_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"frozen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settings" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "selection_versions_number_idx" ON "selection_versions" USING btree ("selection_id","number");
--> statement-breakpoint
CREATE TABLE "selection_outcomes" (
	"version_id" uuid NOT NULL REFERENCES "selection_versions"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"score" double precision NOT NULL,
	"categories" uuid[] NOT NULL,
	"qualified_in" uuid[] NOT NULL,
	CONSTRAINT "selection_outcomes_version_id_user_id_pk" PRIMARY KEY("version_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "selection_outcomes_user_idx" ON "selection_outcomes" USING btree ("user_id");
--> statement-breakpoint
ALTER TABLE "access_groups" ADD COLUMN "required_selection_id" uuid REFERENCES "selections"("id") ON DELETE restrict;
--> statement-breakpoint
ALTER TABLE "institutions" ADD COLUMN "sector" text;
--> statement-breakpoint
ALTER TABLE "institutions" ADD COLUMN "academy" text;
