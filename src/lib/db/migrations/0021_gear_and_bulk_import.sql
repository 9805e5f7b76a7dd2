CREATE TABLE "user_gear" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"start_distance" double precision DEFAULT 0 NOT NULL,
	"alert_distance" double precision,
	"retired" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_gear_kind_check" CHECK ("user_gear"."kind" in ('shoes', 'bike'))
);
--> statement-breakpoint
CREATE TABLE "workout_bulk_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"file_name" text,
	"total" integer DEFAULT 0 NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "workouts" ADD COLUMN "gear_id" integer;--> statement-breakpoint
ALTER TABLE "user_gear" ADD CONSTRAINT "user_gear_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workout_bulk_imports" ADD CONSTRAINT "workout_bulk_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_gear_user_idx" ON "user_gear" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workout_bulk_imports_user_idx" ON "workout_bulk_imports" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "workouts" ADD CONSTRAINT "workouts_gear_id_user_gear_id_fk" FOREIGN KEY ("gear_id") REFERENCES "public"."user_gear"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workouts_gear_idx" ON "workouts" USING btree ("gear_id");