CREATE TABLE "challenge_pace_confirmations" (
	"workout_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "challenge_pace_confirmations_workout_id_pk" PRIMARY KEY("workout_id")
);
--> statement-breakpoint
CREATE TABLE "challenge_participants" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"show_name" boolean DEFAULT false NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"reached_at" timestamp with time zone NOT NULL,
	"workout_count" integer DEFAULT 0 NOT NULL,
	"flagged_count" integer DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"metric" text NOT NULL,
	"activity_groups" jsonb NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"target" double precision NOT NULL,
	"mode" text DEFAULT 'solo' NOT NULL,
	"prizes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"participant_count" integer DEFAULT 0 NOT NULL,
	"award_thresholds" jsonb DEFAULT '[0.25,0.5,0.75,1]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "challenges_metric_check" CHECK ("challenges"."metric" in ('distance', 'duration', 'count', 'calories', 'climb')),
	CONSTRAINT "challenges_mode_check" CHECK ("challenges"."mode" in ('solo', 'team')),
	CONSTRAINT "challenges_dates_check" CHECK ("challenges"."starts_on" <= "challenges"."ends_on")
);
--> statement-breakpoint
ALTER TABLE "challenge_pace_confirmations" ADD CONSTRAINT "challenge_pace_confirmations_workout_id_workouts_id_fk" FOREIGN KEY ("workout_id") REFERENCES "public"."workouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_pace_confirmations" ADD CONSTRAINT "challenge_pace_confirmations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD CONSTRAINT "challenge_participants_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_participants" ADD CONSTRAINT "challenge_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_participants_pair_idx" ON "challenge_participants" USING btree ("challenge_id","user_id");--> statement-breakpoint
CREATE INDEX "challenge_participants_board_idx" ON "challenge_participants" USING btree ("challenge_id","progress" DESC NULLS FIRST,"reached_at","user_id");--> statement-breakpoint
CREATE INDEX "challenge_participants_user_idx" ON "challenge_participants" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "challenges_slug_idx" ON "challenges" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "challenges_ends_on_idx" ON "challenges" USING btree ("ends_on");