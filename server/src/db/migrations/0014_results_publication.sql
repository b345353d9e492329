ALTER TABLE "chapters" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "show_rank" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "qualification_threshold" double precision;--> statement-breakpoint
ALTER TABLE "chapters" ADD COLUMN "qualification_text" text DEFAULT 'Qualifié(e) pour le tour suivant' NOT NULL;